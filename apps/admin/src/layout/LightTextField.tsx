import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';
import { useId, type ChangeEvent, type ReactNode } from 'react';

interface Props {
  label: ReactNode;
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  helperText?: ReactNode;
}

/**
 * MUI's outlined TextField as the sign-in pages use it (label, helper text, required mark), made of its
 * parts: TextField itself also brings its select and other variants, which the first screen does not need
 * (docs/decisions/0083-lighter-back-office.md).
 */
export function TextField({ label, name, value, onChange, type, autoComplete, required, helperText }: Props) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" required={required}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={onChange}
        // the notch leaves room for the label with its required mark, as TextField does
        label={required ? <>{label}&thinsp;*</> : label}
        aria-describedby={helperId}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
