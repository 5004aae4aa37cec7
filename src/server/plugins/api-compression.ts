import compress, { type FastifyCompressOptions } from '@fastify/compress'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/** Clients that accept brotli get it (smaller), others gzip; answers under 1 KiB go as they are. */
const API_COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  // Request bodies stay plain JSON: a compressed upload is never needed, and refusing it keeps
  // the body limit about the bytes that arrive.
  globalDecompression: false,
}

/**
 * Compresses the JSON of the scope that registers it (the API, the OpenAPI document), and
 * nothing else: the page's files are compressed once, at build time (docs/decisions/007).
 */
export const apiCompressionPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, API_COMPRESSION)
  },
  { name: 'api-compression' },
)
