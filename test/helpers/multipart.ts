/** A multipart/form-data upload built by hand, for the API tests of uploads. */
export const BOUNDARY = 'finctl-test-boundary-7MA4YWxkTrZu0gW'

/** A multipart/form-data body by hand (the same bytes through either transport). */
export function multipart(fields: Record<string, unknown>, file: { name: string; bytes: Uint8Array }): { body: Buffer; type: string } {
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(item)}\r\n`))
    }
  }
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  )
  parts.push(Buffer.from(file.bytes))
  parts.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`))
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${BOUNDARY}` }
}
