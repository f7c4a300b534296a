import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import DeleteIcon from '@mui/icons-material/Delete';
import { Box, Button, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '@shop/shared';
import { useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNotifyApiError } from '../apiErrors';
import { useFormContext, useWatch } from 'react-hook-form';
import { imageSrc } from '../config';
import { adminApi } from '../shopApi';
import { moveItem } from './gallery';

/** The API keeps at most this many images per product. */
export const MAX_IMAGES = 10;

/**
 * The product's gallery (`images`): upload one or more files (PNG, JPEG, GIF or WebP under 5 MB, through
 * /api/uploads) or add a URL, reorder (the first image is the one shown in lists and on cards), remove.
 */
export function GalleryField({
  source = 'images',
  label = 'shop.admin.products.gallery',
  testId = 'gallery',
}: {
  /** The form field holding the list (a variant's images: `variants.2.images`). */
  source?: string;
  label?: string;
  testId?: string;
} = {}) {
  const t = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyApiError();
  const { setValue } = useFormContext();
  const images: string[] = useWatch({ name: source }) ?? [];
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [url, setUrl] = useState('');

  const set = (next: string[]) => setValue(source, next, { shouldDirty: true, shouldTouch: true });

  const upload = async (files: File[]) => {
    if (!files.length) return;
    if (files.some((f) => !(UPLOAD_TYPES as readonly string[]).includes(f.type)))
      return notify('shop.admin.products.imageType', { type: 'error' });
    if (files.some((f) => f.size >= UPLOAD_MAX_BYTES))
      return notify('shop.admin.products.imageTooLarge', { type: 'error' });
    if (images.length + files.length > MAX_IMAGES)
      return notify('shop.admin.products.tooManyImages', { type: 'error', messageArgs: { max: MAX_IMAGES } });
    setUploading(true);
    try {
      const urls = await adminApi.upload(files);
      set([...images, ...urls]);
    } catch (error) {
      notifyError(error, 'shop.admin.products.uploadFailed');
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  const addUrl = () => {
    const value = url.trim();
    if (!value) return;
    if (images.length >= MAX_IMAGES)
      return notify('shop.admin.products.tooManyImages', { type: 'error', messageArgs: { max: MAX_IMAGES } });
    set([...images, value]);
    setUrl('');
  };

  return (
    <Box sx={{ width: '100%', display: 'grid', gap: 1 }} data-testid={testId}>
      <Typography variant="subtitle2">{t(label)}</Typography>
      <Box component="ol" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}>
        {images.map((src, i) => (
          <Box
            component="li"
            key={`${src}-${i}`}
            data-testid="gallery-item"
            data-src={src}
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 0.5, textAlign: 'center' }}
          >
            <img
              src={imageSrc(src)}
              alt=""
              data-testid={i === 0 ? 'image-preview' : undefined}
              style={{ width: 72, height: 72, objectFit: 'cover', borderRadius: 4, display: 'block' }}
            />
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <Tooltip title={t('shop.admin.products.moveEarlier')}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t('shop.admin.products.moveEarlier')}
                    disabled={i === 0}
                    onClick={() => set(moveItem(images, i, i - 1))}
                  >
                    <ArrowBackIcon fontSize="inherit" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t('shop.admin.products.moveLater')}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t('shop.admin.products.moveLater')}
                    disabled={i === images.length - 1}
                    onClick={() => set(moveItem(images, i, i + 1))}
                  >
                    <ArrowForwardIcon fontSize="inherit" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={t('shop.admin.products.removeImage')}>
                <IconButton
                  size="small"
                  aria-label={t('shop.admin.products.removeImage')}
                  onClick={() => set(images.filter((_, j) => j !== i))}
                >
                  <DeleteIcon fontSize="inherit" />
                </IconButton>
              </Tooltip>
            </Box>
          </Box>
        ))}
        {!images.length && (
          <Typography variant="body2" color="text.secondary">
            {t('shop.admin.products.noImages')}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" component="label" disabled={uploading}>
          {uploading ? t('shop.admin.products.uploading') : t('shop.admin.products.uploadImage')}
          <input
            ref={input}
            hidden
            multiple
            type="file"
            name={source === 'images' ? 'image-upload' : `${source}-upload`}
            accept={UPLOAD_TYPES.join(',')}
            onChange={(e) => upload([...(e.target.files ?? [])])}
          />
        </Button>
        <Typography variant="caption" color="text.secondary">
          {t('shop.admin.products.imageRules')}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <TextField
          size="small"
          name={source === 'images' ? 'image-url' : `${source}-url`}
          label={t('shop.admin.products.imageUrl')}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addUrl();
            }
          }}
          sx={{ flex: 1 }}
        />
        <Button onClick={addUrl}>{t('shop.admin.products.addImage')}</Button>
      </Box>
    </Box>
  );
}
