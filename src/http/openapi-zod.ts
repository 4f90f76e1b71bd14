// zod with the `.openapi()` method of @asteasolutions/zod-to-openapi. Every module that writes HTTP
// schemas imports `z` from here, so the extension is installed before any schema is built.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
