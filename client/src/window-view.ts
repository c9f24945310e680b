import type * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
export function registerWindowView(_context: vscode.ExtensionContext, _client: BaseLanguageClient): void { /* TODO */ }
