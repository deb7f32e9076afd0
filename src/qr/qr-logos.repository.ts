import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { LogoFile, LogoType } from './logo-file';
import { AccountQrLogo, LinkQrLogo } from './qr-logo.entity';

/** Whose logo a code draws: the link's own, or its workspace's. */
export type LogoOwner = { kind: 'link'; linkId: number } | { kind: 'account'; accountId: number };

/** A logo found for a code, without its bytes. */
export interface StoredLogo {
  owner: LogoOwner;
  contentType: LogoType;
  digest: string;
}

interface ChosenRow {
  kind: 'link' | 'account';
  owner_id: number;
  content_type: LogoType;
  digest: string;
}

/** A `bytea` as the driver answers it: a Buffer from node-postgres, a Uint8Array from the embedded database. */
function asBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** The logos of links and workspaces: one row each at most, by the primary key of its link or account. */
@Injectable()
export class QrLogosRepository {
  constructor(
    @InjectRepository(LinkQrLogo) private readonly linkLogos: Repository<LinkQrLogo>,
    @InjectRepository(AccountQrLogo) private readonly accountLogos: Repository<AccountQrLogo>,
  ) {}

  /**
   * The link's logo, else its workspace's, without the image: at most one row by each primary key, the workspace's
   * through the link's own (the link's row names its account), the link's first.
   */
  async choose(linkId: number): Promise<StoredLogo | null> {
    const rows: ChosenRow[] = await this.linkLogos.query(
      `SELECT 0 AS preference, 'link' AS kind, link_id AS owner_id, content_type, digest
         FROM link_qr_logos WHERE link_id = $1
       UNION ALL
       SELECT 1, 'account', a.account_id, a.content_type, a.digest
         FROM links l JOIN account_qr_logos a ON a.account_id = l.account_id WHERE l.id = $1
       ORDER BY preference
       LIMIT 1`,
      [linkId],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    const owner: LogoOwner =
      row.kind === 'link'
        ? { kind: 'link', linkId: row.owner_id }
        : { kind: 'account', accountId: row.owner_id };
    return { owner, contentType: row.content_type, digest: row.digest };
  }

  /** The image of the logo as it is now; null once it is gone. */
  async image(owner: LogoOwner): Promise<{ image: Buffer; digest: string; contentType: LogoType } | null> {
    const rows: { image: Uint8Array; digest: string; content_type: LogoType }[] =
      owner.kind === 'link'
        ? await this.linkLogos.query(
            'SELECT image, digest, content_type FROM link_qr_logos WHERE link_id = $1',
            [owner.linkId],
          )
        : await this.accountLogos.query(
            'SELECT image, digest, content_type FROM account_qr_logos WHERE account_id = $1',
            [owner.accountId],
          );
    if (rows.length === 0) return null;
    return { image: asBuffer(rows[0].image), digest: rows[0].digest, contentType: rows[0].content_type };
  }

  /** Puts the logo in place of the one the link or workspace had, in one statement whoever else is putting one. */
  async put(owner: LogoOwner, file: LogoFile): Promise<Date> {
    const [table, column, id] =
      owner.kind === 'link'
        ? ['link_qr_logos', 'link_id', owner.linkId]
        : ['account_qr_logos', 'account_id', owner.accountId];
    const rows: { updated_at: Date }[] = await this.linkLogos.query(
      `INSERT INTO ${table} (${column}, content_type, image, digest) VALUES ($1, $2, $3, $4)
       ON CONFLICT (${column}) DO UPDATE
         SET content_type = excluded.content_type, image = excluded.image, digest = excluded.digest,
             updated_at = now()
       RETURNING updated_at`,
      [id, file.contentType, file.bytes, file.digest],
    );
    return new Date(rows[0].updated_at);
  }

  /** Whether there was a logo to remove. */
  async remove(owner: LogoOwner): Promise<boolean> {
    const result =
      owner.kind === 'link'
        ? await this.linkLogos.delete({ linkId: owner.linkId })
        : await this.accountLogos.delete({ accountId: owner.accountId });
    return (result.affected ?? 0) > 0;
  }
}
