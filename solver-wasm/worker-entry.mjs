// piscina cannot load a .ts worker under tsx on its own: register tsx's loader in this thread,
// then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');
export default worker.default;
