// Short names for the generated schema's shapes that the views use.
import type { components } from './schema';

type Schemas = components['schemas'];

export type Link = Schemas['LinkResponse'];
export type QrErrorCorrection = Schemas['QrErrorCorrection'];
export type QrStyle = Schemas['QrStyle'];
export type LinkTarget = Schemas['LinkTargetResponse'];
export type LinkHealth = Schemas['LinkHealthResponse'];
export type CreateLinkBody = Schemas['CreateLinkDto'];
export type UpdateLinkBody = Schemas['UpdateLinkDto'];
export type TargetBody = Schemas['TargetDto'];
export type TargetsType = Schemas['TargetsType'];
export type LinkPrivacy = Schemas['LinkPrivacy'];
export type LinkStatusFilter = Schemas['LinkStatusFilter'];
export type Space = Schemas['SpaceResponse'];
export type SpaceColor = Schemas['SpaceColor'];
export type Tag = Schemas['TagResponse'];
export type TagColor = Schemas['TagColor'];
export type UtmTemplate = Schemas['UtmTemplateResponse'];
export type Domain = Schemas['DomainResponse'];
export type Pixel = Schemas['PixelResponse'];
export type PixelType = Schemas['PixelType'];
export type ApiKey = Schemas['KeyResponse'];
export type Scope = Schemas['Scope'];
export type Webhook = Schemas['WebhookResponse'];
export type EventType = Schemas['EventType'];
export type Delivery = Schemas['DeliveryResponse'];
export type Account = Schemas['AccountResponse'];
export type StatsName = Schemas['StatsName'];
export type StatsRow = Schemas['StatsRow'];
export type ListedClick = Schemas['ClickResponse'];
export type PageMeta = Schemas['PageMeta'];
export type PerPage = Schemas['PerPage'];
export type SortDirection = Schemas['SortDirection'];
export type Role = Schemas['Role'];
export type User = Schemas['UserResponse'];
export type UserSession = Schemas['UserSessionResponse'];
export type Member = Schemas['MemberResponse'];
export type Invitation = Schemas['InvitationResponse'];
export type AuditEntry = Schemas['AuditEntryResponse'];
export type AuditActorType = Schemas['AuditActorType'];
export type AuditTargetType = Schemas['AuditTargetType'];
export type ImportJob = Schemas['ImportResponse'];
export type ImportSource = Schemas['ImportSource'];
export type ImportStatus = Schemas['ImportStatus'];
export type ImportOnConflict = Schemas['ImportOnConflict'];
export type CreateImportBody = Schemas['CreateImportDto'];

// The sessions and the ways in (api/session.ts).
export type Session = Schemas['SessionResponse'];
export type Workspace = Schemas['SessionWorkspaceResponse'];
export type SignInBody = Schemas['SignInDto'];
export type AcceptInvitationBody = Schemas['AcceptInvitationDto'];
export type RegisterBody = Schemas['RegisterDto'];
