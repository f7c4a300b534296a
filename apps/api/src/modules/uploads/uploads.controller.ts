import { Controller, Get, Headers, Param, Post, Res, UploadedFiles, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { NotFoundError } from '../../common/errors/domain-error';
import { ImageUploadInterceptor } from './image-upload.interceptor';
import { UploadImagesBodyDto, UploadResponseDto } from './uploads.dto';
import { UploadsService, type IncomingImage } from './uploads.service';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

@ApiTags('uploads')
@Controller('uploads')
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post()
  @AdminOnly()
  @UseInterceptors(ImageUploadInterceptor)
  @ApiOperation({
    summary:
      'Upload product photos (admin): multipart field images, PNG/JPEG/WebP by content, under 5MB each, at most 5; each is kept as WebP and AVIF copies at widths 320/640/1024/1600 (never wider than the photo), EXIF removed',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadImagesBodyDto })
  @ApiCreatedResponse({ type: UploadResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description:
      "'Only PNG, JPEG, GIF or WebP images are allowed', an unreadable image, too many files, no files",
  })
  @ApiPayloadTooLargeResponse({ type: ErrorDto, description: 'File size must be less than 5MB' })
  async upload(@UploadedFiles() files: IncomingImage[] | undefined) {
    const saved = await this.uploads.saveImages(files);
    return { success: true, urls: saved.map((f) => f.url), files: saved };
  }

  @Get(':file')
  @ApiOperation({
    summary:
      'An uploaded image (public, immutable: the name is a content hash). <hash>-<w>x<h>-<rrggbb>.webp is the largest WebP; <that stem>-<width>.avif|webp a copy',
  })
  @ApiProduces('image/webp', 'image/avif', 'image/png', 'image/jpeg', 'image/gif')
  @ApiOkResponse({ description: 'The image bytes', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Image not found' })
  async serve(
    @Param('file') file: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ) {
    const image = await this.uploads.readImage(file);
    if (!image) throw new NotFoundError('Image not found', 'IMAGE_NOT_FOUND');
    // names are content hashes (or, for older uploads, random and never reused): the bytes behind a URL never change
    const etag = `"${file}"`;
    res.set('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`).set('ETag', etag);
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
      res.status(304).end();
      return;
    }
    res.status(200).type(image.contentType).send(image.buffer);
  }
}
