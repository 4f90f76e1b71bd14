// zod with the `.openapi()` method of @asteasolutions/zod-to-openapi. Every module that writes HTTP
// schemas imports `z` from here, so the extension is installed before any schema is built.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };

/**
 * The schema of a value as the service writes it: every field that has a default in a request is
 * always present in an answer, so it is required there (a generated client then need not test it).
 * Validates the same complete values as `schema`'s output. Handles the shapes of the solver
 * configuration: objects, defaults, optionals and nullables around them.
 */
export function answeredSchema<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> {
  return answered(schema) as z.ZodType<z.output<T>>;
}

function answered(schema: z.ZodType): z.ZodType {
  const described = (result: z.ZodType, source: z.ZodType) => (source.description ? result.describe(source.description) : result);
  if (schema instanceof z.ZodDefault) return described(answered(schema.unwrap() as z.ZodType), schema);
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, value]) => [key, answered(value)]));
    return described(schema.extend(shape), schema);
  }
  return schema;
}
