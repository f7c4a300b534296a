import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { SETTINGS_LANGUAGES } from '@shop/shared';
import { CONTACT_LIMITS, CONTACT_STATUSES, type ContactStatus } from '../schemas/contact.schema';

const trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export class SubmitContactDto {
  @ApiProperty({ example: 'Hana Tesfaye', maxLength: CONTACT_LIMITS.name })
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONTACT_LIMITS.name)
  name!: string;

  @ApiProperty({ example: 'hana@example.com', maxLength: CONTACT_LIMITS.email })
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONTACT_LIMITS.email)
  @IsEmail()
  email!: string;

  @ApiProperty({ example: 'Question about shea butter', maxLength: CONTACT_LIMITS.subject })
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONTACT_LIMITS.subject)
  subject!: string;

  @ApiProperty({ example: 'Is it suitable for dry skin?', maxLength: CONTACT_LIMITS.message })
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONTACT_LIMITS.message)
  message!: string;

  @ApiPropertyOptional({
    enum: SETTINGS_LANGUAGES,
    description: "The page's language: replies are written to the sender in it (absent: the shop's language)",
  })
  @IsOptional()
  @IsIn(SETTINGS_LANGUAGES)
  language?: string;
}

/** A staff reply to a contact message: sent by email to the sender, kept on the message. */
export class ContactReplyInputDto {
  @ApiProperty({
    example: 'Yes, it suits dry skin; apply it after a shower.',
    maxLength: CONTACT_LIMITS.reply,
  })
  @trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(CONTACT_LIMITS.reply)
  text!: string;
}

export class ContactStatusDto {
  @ApiProperty({ enum: CONTACT_STATUSES, example: 'read' })
  @IsString()
  @IsIn(CONTACT_STATUSES)
  status!: ContactStatus;
}

/**
 * The back office's contact update (react-admin sends the whole record back): only `status` is
 * written; the record's other fields are accepted and ignored, anything else is refused.
 */
export class ContactRecordInputDto extends ContactStatusDto {
  @ApiHideProperty() @Allow() id?: unknown;
  @ApiHideProperty() @Allow() _id?: unknown;
  @ApiHideProperty() @Allow() name?: unknown;
  @ApiHideProperty() @Allow() email?: unknown;
  @ApiHideProperty() @Allow() subject?: unknown;
  @ApiHideProperty() @Allow() message?: unknown;
  @ApiHideProperty() @Allow() ipAddress?: unknown;
  @ApiHideProperty() @Allow() language?: unknown;
  @ApiHideProperty() @Allow() replies?: unknown;
  @ApiHideProperty() @Allow() createdAt?: unknown;
  @ApiHideProperty() @Allow() updatedAt?: unknown;
}

export class ListContactsQuery {
  @ApiPropertyOptional({ enum: CONTACT_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn(CONTACT_STATUSES)
  status?: ContactStatus;
}

export class ContactReplyDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345679' }) _id!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ description: "The author's user id" }) author!: string;
  @ApiProperty({ example: 'Abebe Admin' }) authorName!: string;
  @ApiProperty({ enum: SETTINGS_LANGUAGES, description: 'The language the email went out in' })
  language!: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
}

export class ContactDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345678' }) _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ enum: CONTACT_STATUSES }) status!: string;
  @ApiPropertyOptional({ example: '196.188.0.10' }) ipAddress?: string;
  @ApiPropertyOptional({ enum: SETTINGS_LANGUAGES, description: 'The page language of the message' })
  language?: string;
  @ApiProperty({ type: [ContactReplyDto] }) replies!: ContactReplyDto[];
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
}

export class ContactSubmittedDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: "Your message has been sent. We'll get back to you soon." }) message!: string;
}

export class ContactListDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [ContactDto] }) contacts!: ContactDto[];
}

export class ContactResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: ContactDto }) contact!: ContactDto;
  @ApiPropertyOptional({ example: 'Contact status updated successfully' }) message?: string;
}

export class ContactDeletedDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: 'Contact deleted successfully' }) message!: string;
}
