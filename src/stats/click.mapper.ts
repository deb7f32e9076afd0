import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime } from '../common/openapi';
import type { ListedClick } from './stats.repository';

/** A recorded text of a click: null where nothing was recorded. */
function Recorded(example: string, description?: string): PropertyDecorator {
  return ApiProperty({ type: 'string', nullable: true, example, ...(description ? { description } : {}) });
}

/** One click of a link, as the click export writes it (the stored codes, not phpShort's names), and its target. */
export class ClickResponse {
  @ApiDateTime()
  created_at!: string;

  @Recorded('news.example.org', 'The referring host; null for a visit without one.')
  referrer!: string | null;

  @Recorded('GB')
  country!: string | null;

  @Recorded('London', 'Recorded where a city database is installed.')
  city!: string | null;

  @Recorded('EU')
  continent!: string | null;

  @Recorded('Safari')
  browser!: string | null;

  @Recorded('iOS')
  operating_system!: string | null;

  @Recorded('Mobile')
  device!: string | null;

  @Recorded('en')
  language!: string | null;

  @Recorded('https://example.com/spring', 'The URL the visit was sent to; null where it was not recorded.')
  target!: string | null;
}

export function clickResponse(click: ListedClick): ClickResponse {
  return {
    created_at: isoDate(click.created_at),
    referrer: click.referrer,
    country: click.country,
    city: click.city,
    continent: click.continent,
    browser: click.browser,
    operating_system: click.operating_system,
    device: click.device,
    language: click.language,
    target: click.target,
  };
}
