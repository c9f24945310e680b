#!/usr/bin/env node
require('../dist/lsp-lint.js');
