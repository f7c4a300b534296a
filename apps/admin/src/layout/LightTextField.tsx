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
  size?: 'small' | 'medium';
  /** as the theme says when not given (full width); MUI's TextField is not full width unless asked */
  fullWidth?: boolean;
  /** the label stays above the field (a date field always shows its placeholder) */
  shrinkLabel?: boolean;
  /** attributes of the <input> itself, e.g. `data-testid` */
  inputProps?: Record<string, string>;
}

/**
 * MUI's outlined TextField as the sign-in pages use it (label, helper text, required mark), made of its
 * parts: TextField itself also brings its select and other variants, which the first screen and the dashboard
 * do not need (docs/decisions/0083-lighter-back-office.md, 0088-back-office-within-budget.md).
 */
export function TextField({
  label,
  name,
  value,
  onChange,
  type,
  autoComplete,
  required,
  helperText,
  size,
  fullWidth,
  shrinkLabel,
  inputProps,
}: Props) {
  const id = useId();
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl variant="outlined" required={required} size={size} fullWidth={fullWidth}>
      <InputLabel htmlFor={id} id={`${id}-label`} shrink={shrinkLabel || undefined}>
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
        notched={shrinkLabel || undefined}
        inputProps={inputProps}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
