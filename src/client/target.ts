/** Where a command's requests go: the embedded core on a database, or a finctl service at a URL. */
export type Target = { kind: 'embedded'; database: string } | { kind: 'remote'; baseUrl: string }
