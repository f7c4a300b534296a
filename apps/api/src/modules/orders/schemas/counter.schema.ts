import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Named sequences (`orderNumber`), each advanced with one atomic `$inc`. */
@Schema({ collection: 'counters', versionKey: false })
export class Counter {
  @Prop({ required: true }) name!: string;
  @Prop({ required: true, default: 0 }) seq!: number;
}
export const CounterSchema = SchemaFactory.createForClass(Counter);
CounterSchema.index({ name: 1 }, { unique: true });
