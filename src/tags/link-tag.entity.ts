import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tag } from './tag.entity';

/**
 * Which tags a link holds, in the order they were given. The link is named by entity so that this module imports
 * nothing of `links/`.
 */
@Entity('link_tags')
@Index('IDX_link_tags_tag', ['tagId', 'linkId'])
export class LinkTag {
  @PrimaryColumn({ name: 'link_id', type: 'integer', primaryKeyConstraintName: 'PK_link_tags' })
  linkId!: number;

  @PrimaryColumn({ name: 'tag_id', type: 'integer', primaryKeyConstraintName: 'PK_link_tags' })
  tagId!: number;

  @Column({ type: 'smallint' })
  position!: number;

  @ManyToOne('Link', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'link_id', foreignKeyConstraintName: 'FK_link_tags_link' })
  link?: object;

  @ManyToOne(() => Tag, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id', foreignKeyConstraintName: 'FK_link_tags_tag' })
  tag?: Tag;
}
