import { PixelTypeValues } from '../../api/enums';
import type { PixelType } from '../../api/types';
import { labelledOptions, Options } from '../../components/FilterSelect';

/** The pixel providers by the API's type names; brand names, the same in every language. */
export const PIXEL_TYPE_NAMES: Record<PixelType, string> = {
  adroll: 'AdRoll',
  bing: 'Bing',
  facebook: 'Facebook',
  'google-ads': 'Google Ads',
  'google-analytics': 'Google Analytics',
  'google-tag-manager': 'Google Tag Manager',
  linkedin: 'LinkedIn',
  pinterest: 'Pinterest',
  quora: 'Quora',
  x: 'X',
};

/** The providers as a select's options. */
export function PixelTypeOptions() {
  return <Options options={labelledOptions(PixelTypeValues, PIXEL_TYPE_NAMES)} />;
}
