import { isbot } from 'isbot';

/**
 * The link-preview crawlers of the social networks and chat apps contract §13 names, by the product token each
 * sends: Facebook (`facebookexternalhit`, `Facebot`), X (`Twitterbot`), LinkedIn (`LinkedInBot`), Slack
 * (`Slackbot`, `Slack-ImgProxy`), Discord (`Discordbot`), WhatsApp (`WhatsApp/`), Telegram (`TelegramBot`) and
 * iMessage, whose previews send Facebook's and X's tokens together. Whether an agent is a crawler at all is
 * isbot's maintained list to say; this only picks, among crawlers, those that show a preview card.
 */
const PREVIEW_TOKENS =
  /facebookexternalhit|facebot|twitterbot|linkedinbot|slackbot|slack-imgproxy|discordbot|whatsapp\/|telegrambot/i;

/** Whether the user agent is a social network's or a chat app's link-preview crawler. */
export function isPreviewCrawler(userAgent: string | undefined): boolean {
  return userAgent !== undefined && PREVIEW_TOKENS.test(userAgent) && isbot(userAgent);
}
