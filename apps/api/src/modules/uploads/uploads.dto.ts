import { ApiProperty } from '@nestjs/swagger';

export class UploadImagesBodyDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'binary' },
    maxItems: 5,
    description: 'PNG, JPEG, GIF or WebP photos (a GIF: its first frame), each under 5MB, at most 5',
  })
  images!: unknown[];
}

const PHOTO_URL = '/api/uploads/3f9ac2d41b7e08a9c6d2e511-1200x1600-a86b4c.webp';

export class ImageVariantDto {
  @ApiProperty({ example: PHOTO_URL.replace('.webp', '-640.avif') }) url!: string;
  @ApiProperty({ example: 640 }) width!: number;
  @ApiProperty({ example: 'image/avif', enum: ['image/avif', 'image/webp'] }) type!: string;
  @ApiProperty({ example: 31877 }) size!: number;
}

export class UploadedImageDto {
  @ApiProperty({
    example: PHOTO_URL,
    description:
      "The product's image URL: the largest WebP (at most 1600 px wide). Its name tells the copies: <stem>-<width>.avif|webp",
  })
  url!: string;
  @ApiProperty({ example: 'moringa.jpg' }) originalName!: string;
  @ApiProperty({ example: 'image/jpeg', description: 'The uploaded type (the copies are WebP and AVIF)' })
  contentType!: string;
  @ApiProperty({ example: 3482113, description: 'The uploaded size in bytes' }) size!: number;
  @ApiProperty({ example: 1200, description: 'Width of the largest copy' }) width!: number;
  @ApiProperty({ example: 1600, description: 'Height of the largest copy' }) height!: number;
  @ApiProperty({ example: '#a86b4c', description: 'Dominant colour, shown while the photo loads' })
  placeholder!: string;
  @ApiProperty({ type: [ImageVariantDto] }) variants!: ImageVariantDto[];
}

export class UploadResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [String], example: [PHOTO_URL] })
  urls!: string[];
  @ApiProperty({ type: [UploadedImageDto] }) files!: UploadedImageDto[];
}
