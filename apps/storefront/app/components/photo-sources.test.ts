import { describe, expect, it } from 'vitest';
import { photoSources, photoWidths } from './photo-sources';

const API = 'https://api.shop.et/api/uploads/';
const PORTRAIT = `${API}3f9ac2d41b7e08a9c6d2e511-1600x2133-a86b4c.webp`;

describe('the srcset of an uploaded photo, from its URL alone', () => {
  it('lists the AVIF and WebP copies at 320/640/1024/1600 with their widths', () => {
    const stem = `${API}3f9ac2d41b7e08a9c6d2e511-1600x2133-a86b4c`;
    expect(photoSources(PORTRAIT)).toEqual({
      avif: `${stem}-320.avif 320w, ${stem}-640.avif 640w, ${stem}-1024.avif 1024w, ${stem}-1600.avif 1600w`,
      webp: `${stem}-320.webp 320w, ${stem}-640.webp 640w, ${stem}-1024.webp 1024w, ${stem}-1600.webp 1600w`,
      src: `${stem}-640.webp`,
      width: 1600,
      height: 2133,
      placeholder: '#a86b4c',
    });
  });

  it('never offers a copy wider than the photo', () => {
    expect(photoWidths(500)).toEqual([320, 500]);
    expect(photoWidths(1600)).toEqual([320, 640, 1024, 1600]);
    expect(photoWidths(320)).toEqual([320]);
    expect(photoWidths(200)).toEqual([200]);
    const small = photoSources(`${API}0123456789abcdef01234567-500x400-2e7d32.webp`)!;
    expect(small.webp).toBe(
      `${API}0123456789abcdef01234567-500x400-2e7d32-320.webp 320w, ${API}0123456789abcdef01234567-500x400-2e7d32-500.webp 500w`,
    );
    expect(small.src).toMatch(/-500\.webp$/);
  });

  it('offers only the small copies with Save-Data (the narrowest one in any case)', () => {
    expect(
      photoSources(PORTRAIT, 640)!
        .avif.split(', ')
        .map((s) => s.split(' ')[1]),
    ).toEqual(['320w', '640w']);
    expect(photoSources(PORTRAIT, 320)!.webp.split(', ')).toHaveLength(1);
    expect(photoSources(PORTRAIT, 100)!.webp).toMatch(/-320\.webp 320w$/);
    expect(photoSources(PORTRAIT, 320)!.src).toMatch(/-320\.webp$/);
  });

  it('has nothing for the seed drawings, outside URLs, older uploads and copies', () => {
    for (const url of [
      '/api/assets/products/moringa-serum.svg',
      'https://cdn.example.com/photo.webp',
      `${API}2b1c7c1e-2f0e-4a8e-9a5e-0c7f3b7f4a11.png`,
      `${API}3f9ac2d41b7e08a9c6d2e511-1600x2133-a86b4c-640.webp`,
      `${API}3f9ac2d41b7e08a9c6d2e511-0x2133-a86b4c.webp`,
      `${API}3f9ac2d41b7e08a9c6d2e511-1600x2133-a86b4c.webp?x=1`,
    ])
      expect(photoSources(url), url).toBeUndefined();
  });
});
