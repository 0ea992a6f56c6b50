/** A route as usage records and the access log name it: hono's `/x/:id` written `/x/{id}`, as in the OpenAPI document. */
export function endpointTemplate(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}')
}
