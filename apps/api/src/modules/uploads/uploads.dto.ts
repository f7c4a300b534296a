import { ApiProperty } from '@nestjs/swagger';

export class UploadImagesBodyDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', format: 'binary' },
    maxItems: 5,
    description: 'PNG, JPG or GIF images, each under 5MB, at most 5',
  })
  images!: unknown[];
}

export class UploadedImageDto {
  @ApiProperty({ example: '/api/uploads/2b1c7c1e-2f0e-4a8e-9a5e-0c7f3b7f4a11.png' }) url!: string;
  @ApiProperty({ example: 'moringa.png' }) originalName!: string;
  @ApiProperty({ example: 'image/png' }) contentType!: string;
  @ApiProperty({ example: 48213 }) size!: number;
}

export class UploadResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [String], example: ['/api/uploads/2b1c7c1e-2f0e-4a8e-9a5e-0c7f3b7f4a11.png'] })
  urls!: string[];
  @ApiProperty({ type: [UploadedImageDto] }) files!: UploadedImageDto[];
}
