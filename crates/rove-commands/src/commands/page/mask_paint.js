// Paints black boxes over an image the browser made of a page: decodes
// `data` (base64 of `mime`), fills each box (CSS pixels in page
// coordinates, widened by 2 px) of `area` ([x, y, width, height] in CSS
// pixels, what the image shows), and encodes it again in the same type.
// Run in rove's isolated world: the page's own globals are not used.
async (data, mime, quality, area, boxes) => {
  const raw = atob(data);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  const bitmap = await createImageBitmap(new Blob([bytes], { type: mime }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const sx = bitmap.width / area[2];
  const sy = bitmap.height / area[3];
  ctx.fillStyle = '#000';
  let painted = 0;
  for (const [x, y, w, h] of boxes) {
    const left = Math.floor((x - area[0] - 2) * sx);
    const top = Math.floor((y - area[1] - 2) * sy);
    const right = Math.ceil((x - area[0] + w + 2) * sx);
    const bottom = Math.ceil((y - area[1] + h + 2) * sy);
    if (right <= 0 || bottom <= 0 || left >= bitmap.width || top >= bitmap.height) continue;
    ctx.fillRect(left, top, right - left, bottom - top);
    painted++;
  }
  if (painted === 0) return { painted, data: null };
  const blob = await canvas.convertToBlob({ type: mime, quality: quality / 100 });
  const out = new Uint8Array(await blob.arrayBuffer());
  let text = '';
  for (let i = 0; i < out.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, out.subarray(i, i + 0x8000));
  }
  return { painted, data: btoa(text) };
}
