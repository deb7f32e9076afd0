import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Pixel } from '../pixels/pixel.entity';
import { Link } from './link.entity';

/** Which pixels a link loads. An entity of its own so that its keys and indexes carry the names we give them. */
@Entity('link_pixels')
export class LinkPixel {
  @PrimaryColumn({ name: 'link_id', type: 'integer', primaryKeyConstraintName: 'PK_link_pixels' })
  linkId!: number;

  @Index('IDX_link_pixels_pixel')
  @PrimaryColumn({ name: 'pixel_id', type: 'integer', primaryKeyConstraintName: 'PK_link_pixels' })
  pixelId!: number;

  @ManyToOne(() => Link, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'FK_link_pixels_link' })
  link?: Link;

  @ManyToOne(() => Pixel, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'pixel_id', foreignKeyConstraintName: 'FK_link_pixels_pixel' })
  pixel?: Pixel;
}
