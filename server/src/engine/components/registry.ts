// The component modules (components/types.ts): products inside manifests with a version window of their own. Adding
// one is its module here and its rows in the data; engine/config.ts and the Kubernetes family read this list.
import type { ComponentModule } from './types';
import { fluxComponent } from './flux';
import { operatorComponents } from './operators';

export const COMPONENTS: readonly ComponentModule<any>[] = [fluxComponent, ...operatorComponents];
