/**
 * `messageMetadataSchema` and `dataPartSchemas`, as the AI SDK's `useChat` takes them: any Standard Schema
 * (zod, valibot, arktype…). A value that fails its schema never reaches the transcript; the app hears why
 * through `onError`.
 */
import type { UIMessageChunk } from "ai";

/** The part of the Standard Schema v1 interface this needs. */
export interface StandardSchemaLike {
  readonly "~standard": {
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}
type StandardResult = { value: unknown; issues?: undefined } | { issues: ReadonlyArray<{ message: string }> };

/** The schema options of `useAgentChat`, as the AI SDK's `useChat` takes them. */
export interface ChatSchemas {
  /** Checks each chunk's `messageMetadata`; a chunk whose metadata fails it is dropped and reported. */
  messageMetadataSchema?: StandardSchemaLike;
  /** One schema per `data-*` part name; a data part without one, or failing it, is dropped and reported. */
  dataPartSchemas?: Record<string, StandardSchemaLike>;
}

/**
 * Why a chunk fails the app's schemas, or undefined when it passes (or nothing applies). Async schemas cannot
 * hold a chunk back without reordering the stream, so only synchronous results are enforced.
 */
export function schemaViolation(chunk: UIMessageChunk, schemas: ChatSchemas): string | undefined {
  const { dataPartSchemas, messageMetadataSchema } = schemas;
  if (dataPartSchemas && chunk.type.startsWith("data-")) {
    const name = chunk.type.slice("data-".length);
    const schema = dataPartSchemas[name];
    if (!schema) return `data part '${chunk.type}' has no schema in dataPartSchemas`;
    return issues(schema, (chunk as { data?: unknown }).data, `data part '${chunk.type}'`);
  }
  const metadata = (chunk as { messageMetadata?: unknown }).messageMetadata;
  if (messageMetadataSchema && metadata !== undefined)
    return issues(messageMetadataSchema, metadata, `message metadata on '${chunk.type}'`);
  return undefined;
}

function issues(schema: StandardSchemaLike, value: unknown, what: string): string | undefined {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) return undefined;
  if (!result.issues) return undefined;
  return `${what} fails its schema: ${result.issues.map((i) => i.message).join("; ")}`;
}
