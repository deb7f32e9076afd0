import { Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import { UnauthorizedActionException } from '../common/exceptions';
import { checkedLogo, type LogoFile, type LogoType } from './logo-file';
import { QrLogosRepository, type LogoOwner, type StoredLogo } from './qr-logos.repository';

/** The logo `logo=1` draws for a link: whose it is, its media type and digest, without its bytes. */
export type ChosenLogo = StoredLogo;

/** A logo as the API answers its upload. */
export interface LogoSummary {
  contentType: LogoType;
  bytes: number;
  digest: string;
  updatedAt: Date;
}

/**
 * The logos codes are drawn with: a link's own, else its workspace's. An upload is checked ({@link checkedLogo})
 * before it is kept; whose link or workspace it is, the caller has checked.
 */
@Injectable()
export class QrLogos {
  constructor(private readonly repository: QrLogosRepository) {}

  /** The link's logo, else its workspace's; null when neither has one. */
  forLink(linkId: number): Promise<ChosenLogo | null> {
    return this.repository.choose(linkId);
  }

  /** The file of a chosen logo, as it is now: null once it was removed. */
  async file(chosen: ChosenLogo): Promise<LogoFile | null> {
    const found = await this.repository.image(chosen.owner);
    return found === null
      ? null
      : { contentType: found.contentType, bytes: found.image, digest: found.digest };
  }

  /** Checks the upload (a 422 on `logo`) and keeps it in place of the link's own logo. */
  putForLink(linkId: number, body: unknown, contentType: string): Promise<LogoSummary> {
    return this.put({ kind: 'link', linkId }, body, contentType);
  }

  /**
   * Checks the upload and keeps it in place of the workspace's logo. A key restricted to spaces may not: the
   * workspace's logo is drawn in the codes of links outside them (403, as for the workspace's other settings).
   */
  putForWorkspace(owner: Owner, body: unknown, contentType: string): Promise<LogoSummary> {
    if (owner.spaceIds !== null) throw new UnauthorizedActionException();
    return this.put({ kind: 'account', accountId: owner.accountId }, body, contentType);
  }

  /** Removes the link's own logo, if it has one. */
  async removeForLink(linkId: number): Promise<void> {
    await this.repository.remove({ kind: 'link', linkId });
  }

  /** Removes the workspace's logo, if it has one; a key restricted to spaces may not (403). */
  async removeForWorkspace(owner: Owner): Promise<void> {
    if (owner.spaceIds !== null) throw new UnauthorizedActionException();
    await this.repository.remove({ kind: 'account', accountId: owner.accountId });
  }

  private async put(owner: LogoOwner, body: unknown, contentType: string): Promise<LogoSummary> {
    const file = checkedLogo(body, contentType);
    const updatedAt = await this.repository.put(owner, file);
    return { contentType: file.contentType, bytes: file.bytes.length, digest: file.digest, updatedAt };
  }
}
