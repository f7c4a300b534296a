import { Box, Button, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { TextInput, useNotify, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { adminApi, MAX_UPLOAD_BYTES, UPLOAD_TYPES } from '../shopApi';

/** The product image: a URL typed in, or a file uploaded through /api/uploads (PNG, JPG or GIF under 5 MB). */
export function ImageField() {
  const t = useTranslate();
  const notify = useNotify();
  const { setValue, watch } = useFormContext();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const url: string | undefined = watch('imageUrl');

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!UPLOAD_TYPES.includes(file.type)) return notify('shop.admin.products.imageType', { type: 'error' });
    if (file.size >= MAX_UPLOAD_BYTES) return notify('shop.admin.products.imageTooLarge', { type: 'error' });
    setUploading(true);
    try {
      const [uploaded] = await adminApi.upload([file]);
      setValue('imageUrl', uploaded, { shouldDirty: true });
    } catch {
      notify('shop.admin.products.uploadFailed', { type: 'error' });
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Box sx={{ width: '100%' }}>
      <TextInput source="imageUrl" label="shop.admin.products.imageUrl" fullWidth />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Button variant="outlined" component="label" disabled={uploading}>
          {uploading ? t('shop.admin.products.uploading') : t('shop.admin.products.uploadImage')}
          <input
            ref={input}
            hidden
            type="file"
            name="image-upload"
            accept="image/png,image/jpeg,image/gif"
            onChange={(e) => upload(e.target.files?.[0])}
          />
        </Button>
        <Typography variant="caption" color="text.secondary">
          {t('shop.admin.products.imageRules')}
        </Typography>
        {url && (
          <img
            src={url}
            alt=""
            data-testid="image-preview"
            style={{ width: 56, height: 56, objectFit: 'cover', borderRadius: 4 }}
          />
        )}
      </Box>
    </Box>
  );
}
