/** A multipart body as a browser's FormData would send it, for `app.inject` (avatar and news uploads). */
export async function multipart(parts: Record<string, { data: Buffer; filename: string; type: string } | string>) {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') form.append(name, part);
    else form.append(name, new Blob([new Uint8Array(part.data)], { type: part.type }), part.filename);
  }
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
