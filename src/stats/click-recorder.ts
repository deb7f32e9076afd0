import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { VisitorProfile } from '../targeting/visitor';

export interface CountedClick {
  /** The rotation index this visit is served, for rotating links. */
  lastRotation: number | null;
}

/**
 * Counts a visit and records it in one statement. The conditional UPDATE takes the lock of the link's counter row, so a clicks
 * limit is exact whatever the number of concurrent visitors or instances; the round-robin index advances in the
 * same statement, so rotations are shared by every instance. Nothing is counted without being recorded.
 */
const COUNT_AND_RECORD = `
  WITH counted AS (
    UPDATE link_counters counter
       SET clicks = counter.clicks + 1,
           last_rotation = CASE
             WHEN link.targets_type = 'rotations' AND jsonb_array_length(link.targets) > 0
               THEN (COALESCE(counter.last_rotation, -1) + 1) % jsonb_array_length(link.targets)
             ELSE counter.last_rotation
           END
      FROM links link
     WHERE counter.link_id = $1
       AND link.id = counter.link_id
       AND link.disabled = false
       AND (link.clicks_limit IS NULL OR link.clicks_limit <= 0 OR counter.clicks < link.clicks_limit)
       AND (link.active_period_start_at IS NULL OR now() >= link.active_period_start_at)
       AND (link.active_period_end_at IS NULL OR now() < link.active_period_end_at)
    RETURNING counter.link_id, counter.last_rotation
  ), recorded AS (
    INSERT INTO clicks (link_id, referrer, country, continent, browser, operating_system, device, language)
    SELECT link_id, $2, $3, $4, $5, $6, $7, $8 FROM counted
  )
  SELECT last_rotation FROM counted`;

@Injectable()
export class ClickRecorder {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The counted click, or null when the link may not be visited any more (limit reached, period over). */
  async count(linkId: number, visitor: VisitorProfile): Promise<CountedClick | null> {
    const rows: { last_rotation: number | null }[] = await this.dataSource.query(COUNT_AND_RECORD, [
      linkId,
      visitor.referrer,
      visitor.country,
      visitor.continent,
      visitor.browser,
      visitor.os,
      visitor.device,
      visitor.language,
    ]);
    return rows.length === 0 ? null : { lastRotation: rows[0].last_rotation };
  }
}
