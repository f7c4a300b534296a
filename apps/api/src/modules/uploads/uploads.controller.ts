import { Controller, Get, Param, Post, Res, UploadedFiles, UseInterceptors } from '@nestjs/common';
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
      'Upload product images (admin): multipart field images, PNG/JPG/GIF by content, under 5MB each, at most 5',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadImagesBodyDto })
  @ApiCreatedResponse({ type: UploadResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: "'Only PNG, JPG or GIF images are allowed', too many files, no files",
  })
  @ApiPayloadTooLargeResponse({ type: ErrorDto, description: 'File size must be less than 5MB' })
  async upload(@UploadedFiles() files: IncomingImage[] | undefined) {
    const saved = await this.uploads.saveImages(files);
    return { success: true, urls: saved.map((f) => f.url), files: saved };
  }

  @Get(':file')
  @ApiOperation({ summary: 'An uploaded image (public)' })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif')
  @ApiOkResponse({ description: 'The image bytes', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Image not found' })
  async serve(@Param('file') file: string, @Res() res: Response) {
    const image = await this.uploads.readImage(file);
    if (!image) throw new NotFoundError('Image not found', 'IMAGE_NOT_FOUND');
    res
      .status(200)
      .type(image.contentType)
      // names are random and never reused, so the bytes behind a URL never change
      .set('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`)
      .send(image.buffer);
  }
}
