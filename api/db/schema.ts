import type { ColumnType, Insertable, Selectable } from 'kysely'

/**
 * The database as Kysely sees it. Column names are snake_case as stored; models map them to the
 * contract's names (userId, userName, headImg). Every timestamp is epoch milliseconds in a bigint
 * column (read back as a JS number on both SQLite and PostgreSQL). Later issues add their tables
 * here and in a new migration.
 */
export interface Database {
  users: UsersTable
  sessions: SessionsTable
  email_codes: EmailCodesTable
  rate_limits: RateLimitsTable
  wallets: WalletsTable
  balance_logs: BalanceLogsTable
  withdrawal_pins: WithdrawalPinsTable
  bank_cards: BankCardsTable
  banks: BanksTable
  withdrawals: WithdrawalsTable
  withdrawal_events: WithdrawalEventsTable
  notifications: NotificationsTable
  deliveries: DeliveriesTable
  delivery_devices: DeliveryDevicesTable
  notification_preferences: NotificationPreferencesTable
  push_subscriptions: PushSubscriptionsTable
  audit_log: AuditLogTable
  gift_card_brands: GiftCardBrandsTable
  gift_card_variants: GiftCardVariantsTable
  gift_card_rates: GiftCardRatesTable
  catalogue_version: CatalogueVersionTable
  uploads: UploadsTable
  orders: OrdersTable
  order_cards: OrderCardsTable
  order_card_images: OrderCardImagesTable
  order_events: OrderEventsTable
  ecode_fingerprints: EcodeFingerprintsTable
  analytics_events: AnalyticsEventsTable
  task_claims: TaskClaimsTable
  reward_bank_accounts: RewardBankAccountsTable
  sign_in_places: SignInPlacesTable
  staff: StaffTable
  staff_sessions: StaffSessionsTable
  staff_tokens: StaffTokensTable
  adjustment_requests: AdjustmentRequestsTable
  auto_withdrawals: AutoWithdrawalsTable
  payout_alerts: PayoutAlertsTable
  rate_change_requests: RateChangeRequestsTable
  support_conversations: SupportConversationsTable
  support_messages: SupportMessagesTable
}

export interface UsersTable {
  id: string
  /** Always stored lowercased and trimmed: one account per address. */
  email: string
  /** Self-describing scrypt string; null for accounts made through Google only. */
  password_hash: string | null
  user_name: string
  head_img: string | null
  /** Google's stable `sub` claim once the account is linked. */
  google_sub: string | null
  /** The linked Google account's e-mail, as Google verified it (migration 0005); null when not linked. */
  google_email: string | null
  /** The caller's address key at sign-up (an IPv6 caller by its /64), migration 0007; null before it. */
  signup_address: string | null
  /** Pushes may show amounts (migration 0021); 0/1. */
  push_amounts: ColumnType<number, number | undefined, number>
  created_at: number
  updated_at: number
}

export interface SessionsTable {
  /** sha256 (base64url) of the opaque token; the token itself is never stored. */
  token_hash: string
  user_id: string
  created_at: number
  expires_at: number
  revoked_at: number | null
}

export interface EmailCodesTable {
  id: string
  email: string
  /** contract CodeType: 1 register, 2 reset password, 3 sign in, 4 reset PIN, 5 delete account. */
  type: number
  code_hash: string
  created_at: number
  expires_at: number
  /** Tries spent, right or wrong; at MAX_CODE_ATTEMPTS the code is burnt. */
  attempts: number
  /** Set when the code is consumed or voided by a newer code. */
  used_at: number | null
}

export interface RateLimitsTable {
  key: string
  hits: number
  reset_at: number
}

/** One per person, made by the ledger on the first movement. Minor units; never below zero. */
export interface WalletsTable {
  user_id: string
  currency: string
  balance: number
  frozen: number
  updated_at: number
  /** The sums of the wallet's entries: written only by the database's triggers on `balance_logs` (migration 0024). */
  entries_amount: ColumnType<number, never, never>
  entries_frozen: ColumnType<number, never, never>
  /** The `seq` of the wallet's last entry: raised by the ledger with each one (migration 0028). */
  last_seq: ColumnType<number, number | undefined, number>
}

/** Append-only: never updated or deleted. `amount`/`frozen_change` are signed. */
export interface BalanceLogsTable {
  id: string
  user_id: string
  /** 1, 2, 3… per wallet: the order of entries. */
  seq: number
  /** contract BalanceLogType */
  type: string
  amount: number
  balance_after: number
  frozen_change: number
  frozen_after: number
  ref_type: string | null
  ref_id: string | null
  note: string | null
  /** One per movement: a repeated key moves nothing (e.g. `withdraw:<id>:hold`). */
  idempotency_key: string
  created_at: number
}

export interface WithdrawalPinsTable {
  user_id: string
  /** Slow hash of HMAC(PIN_PEPPER, pin). */
  pin_hash: string
  /** Wrong PINs since the last right one; the lock starts at PIN_MAX_TRIES. */
  failed_count: number
  locked_until: number | null
  /** Withdrawals wait until then after a reset by e-mail code. */
  withdraw_blocked_until: number | null
  busy_until: number | null
  updated_at: number
}

export interface BankCardsTable {
  id: string
  user_id: string
  bank_code: string
  /** The NUBAN; shown only masked, never logged. */
  account_number: string
  account_name: string
  is_default: number
  created_at: number
  /** 1 when account_name is the name the bank resolved (a typed name is never kept then). */
  name_from_bank: number
  /** 1 when the bank's name is far from the profile's name: the payout desk looks first. */
  name_flagged: number
  /** Deleted cards stay for the withdrawals that point at them. */
  deleted_at: number | null
  /** The payout provider's transfer recipient for this account, once created (migration 0017). */
  recipient_code: string | null
  /** When the bank last named this account (null: typed, or saved before names were re-checked). */
  name_checked_at: number | null
}

export interface WithdrawalsTable {
  id: string
  user_id: string
  bank_card_id: string
  request_id: string
  request_hash: string
  amount: number
  fee: number
  currency: string
  /** contract WithdrawalStatus */
  status: string
  reference: string | null
  reason: string | null
  expected_by: number
  created_at: number
  updated_at: number
  /** The provider that pays it ('paystack'); null: an operator pays by hand. */
  payout_provider: string | null
  /** Our reference at the provider (its idempotency key): lowercase, 16–50 of [a-z0-9_-]. */
  payout_reference: string | null
  /** When a payout worker should look at it next; null: nothing to do (or waiting for approval). */
  payout_next_at: number | null
  /** A worker's claim on the row; expires by itself when the worker dies. */
  payout_lease_until: number | null
  /** Set before the first transfer call: from then on, ask the provider before sending again. */
  payout_sent_at: number | null
  payout_attempts: number
  /** An operator approved a payout above AUTO_PAYOUT_MAX. */
  approved_at: number | null
  /** The provider's transfer code and the bank's session id, once known. */
  transfer_code: string | null
  bank_session_id: string | null
  /** The provider's own state word of the transfer, as last heard (for the payout desk). */
  payout_state: string | null
  /** Since when the provider's answers leave the transfer unknown (migration 0016); null: known. */
  payout_unknown_since: number | null
  /** Put before a person on the payout desk (unknown too long); null: not. */
  payout_needs_person_at: number | null
  /** What is known about an unknown or waiting payout, for the desk (never a secret). */
  payout_problem: string | null
  /** Two answers that contradict each other (money moved twice or not at all), until a person resolves it. */
  payout_conflict: string | null
  payout_conflict_at: number | null
  /** The provider's fee for the transfer (fee_charged), minor units. */
  payout_fee: number | null
}

/** The payout desk's banners (migration 0016): one row a kind, deleted once the cause is gone. */
export interface PayoutAlertsTable {
  kind: string
  message: string
  amount: number | null
  raised_at: number
  updated_at: number
}

export interface WithdrawalEventsTable {
  id: string
  withdrawal_id: string
  status: string
  note: string | null
  at: number
}

/** A notification to the person (migration 0013 renamed the table from messages). */
export interface NotificationsTable {
  id: string
  user_id: string
  /** What it is about: withdrawal, order, account… */
  kind: string
  title: string
  content: string
  ref_id: string | null
  read_at: number | null
  created_at: number
}

/** The notification outbox (migration 0020, decision 046): one row per notification and channel. */
export interface DeliveriesTable {
  id: string
  user_id: string
  notification_id: string
  channel: 'push' | 'email'
  /** contract NotifyKind */
  kind: string
  /** The push body when the person keeps amounts off the lock screen. */
  summary: string
  /** due, sending (claimed, lease_until set), sent, dropped (nowhere to send, or gave up) */
  status: string
  attempts: number
  next_attempt_at: number
  lease_until: number | null
  sent_at: number | null
  last_error: string | null
  created_at: number
}
export type DeliveryRow = Selectable<DeliveriesTable>

/** A device (push subscription) that took a push delivery (migration 0027): a retry skips it. */
export interface DeliveryDevicesTable {
  delivery_id: string
  subscription_id: string
  sent_at: number
}

/** A person's choice for one kind of event (no row: both channels on). Booleans as 0/1 on both databases. */
export interface NotificationPreferencesTable {
  user_id: string
  kind: string
  push: number
  email: number
  updated_at: number
}

export interface PushSubscriptionsTable {
  id: string
  user_id: string
  endpoint: string
  p256dh: string
  auth: string
  name: string
  created_at: number
  last_used_at: number | null
}

/** Every operator action: who, what, when, before and after (JSON). */
export interface AuditLogTable {
  id: string
  actor: string
  action: string
  target_type: string
  target_id: string
  before_json: string | null
  after_json: string | null
  created_at: number
}

/** A gift-card brand (contract/catalogue.ts): its logo tile is drawn from initials and colours. */
export interface GiftCardBrandsTable {
  /** Slug: apple, google-play. */
  id: string
  name: string
  initials: string
  /** #rrggbb */
  background: string
  foreground: string
  featured: number
  /** Review ETA in minutes, set by operators. */
  eta_minutes: number
  sort: number
  updated_at: number
}

/** What is bought of a brand: one row per country × card type. Face values in minor units of `currency`. */
export interface GiftCardVariantsTable {
  brand_id: string
  country: string
  currency: string
  card_type: string
  min_face_value: number
  max_face_value: number
  /** JSON array of minor units, or null for any value within the limits. */
  denominations: string | null
}

/** Every rate ever set (append-only): the current one is the newest `set_at` not in the future. */
export interface GiftCardRatesTable {
  brand_id: string
  country: string
  card_type: string
  /** Payout-currency units per card-currency unit, in millionths (contract parseRate). */
  rate_micro: number
  set_at: number
  /** "seed", "operator:ada", "admin". */
  set_by: string
}

/** One row: moved by the database on every write to the brands, variants or rates (migration 0029). */
export interface CatalogueVersionTable {
  id: number
  version: number
}

export type UploadPurpose = 'card' | 'avatar'

/** A stored photo (re-encoded JPEG). The bytes live in the storage (disk or S3) under `storage_key`. */
export interface UploadsTable {
  id: string
  /** The person who uploaded it; null for an operator's proof photo. */
  user_id: string | null
  uploaded_by: string
  /** 'card' (a card photo, secret) or 'avatar' (a profile photo), migration 0005. */
  purpose: UploadPurpose
  storage_key: string
  content_type: string
  bytes: number
  width: number
  height: number
  created_at: number
  /** A card photo's perceptual hash, 64-bit dHash as 16 hex digits (migration 0010, decision 017); null before it. */
  phash: string | null
}

export interface OrdersTable {
  id: string
  order_no: string
  user_id: string
  request_id: string
  /** sha256 of the request's fields (codes as their HMACs): the same key with another body is refused. */
  request_hash: string
  brand_id: string
  country: string
  currency: string
  card_type: string
  /** The rate the person was quoted, locked for the review (millionths). */
  quoted_rate_micro: number
  payout_currency: string
  quoted_payout: number
  proposed_payout: number | null
  settled_payout: number | null
  /** contract OrderStatus */
  status: string
  reason_code: string | null
  proposal_reason: string | null
  proposed_at: number | null
  /** When a lower offer lapses unanswered (decision 051). */
  proposal_answer_by: number | null
  operator_note: string | null
  proof_image_id: string | null
  claimed_by: string | null
  /** When the reviewer's claim lapses and another may take the order (migration 0008). */
  claim_expires_at: number | null
  /** The brand's review ETA when the order was made. */
  eta_minutes: number
  created_at: number
  updated_at: number
  /** A reviewer's first decision (completed, proposed or rejected), written with its event (migration 0024). */
  decided_at: number | null
}

export interface OrderCardsTable {
  id: string
  order_id: string
  position: number
  face_value: number
  quoted_payout: number
  proposed_payout: number | null
  settled_payout: number | null
  reason_code: string | null
  /** AES-256-GCM of the JSON list [code, pin?] (api/lib/secrets-box.ts); null for photos. */
  codes_cipher: string | null
  /** "•••• 7XQ2" (and "•••" for a PIN), JSON list; what every answer shows. */
  codes_masked: string | null
  /** HMAC of the e-code (as the fingerprint), kept for the review signals (migration 0010); null for photos. */
  code_hmac: string | null
}

export interface OrderCardImagesTable {
  order_card_id: string
  upload_id: string
  position: number
}

export interface OrderEventsTable {
  id: string
  order_id: string
  /** 1, 2, 3… per order. */
  seq: number
  status: string
  /** you | operator | system */
  actor: string
  note: string | null
  at: number
}

/** One row per e-code ever submitted (HMAC of the normalised code): a code can be sold once. */
export interface EcodeFingerprintsTable {
  code_hmac: string
  order_card_id: string
  created_at: number
}

export interface AnalyticsEventsTable {
  id: string
  name: string
  user_id: string | null
  /** `<name>:<userId>` for once-per-user events (unique), else null. */
  once_key: string | null
  context_json: string | null
  occurred_at: number | null
  created_at: number
  /** The browser's random visitor id (page views), or null (migration 0006). */
  visitor_id: string | null
}

/** The account that first earned a task reward with a bank account (`<bank code>:<number>`), migration 0007. */
export interface RewardBankAccountsTable {
  bank_account: string
  user_id: string
  created_at: number
}

/** Where a person signed in before: `a:<address key>` or `d:<sha256 of the web's device id>`, migration 0007. */
export interface SignInPlacesTable {
  user_id: string
  place: string
  last_at: number
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type EmailCode = Selectable<EmailCodesTable>
export type WalletRow = Selectable<WalletsTable>
export type BalanceLogRow = Selectable<BalanceLogsTable>
export type WithdrawalPinRow = Selectable<WithdrawalPinsTable>
export type BankCardRow = Selectable<BankCardsTable>
export type WithdrawalRow = Selectable<WithdrawalsTable>
export type WithdrawalEventRow = Selectable<WithdrawalEventsTable>
export type GiftCardBrandRow = Selectable<GiftCardBrandsTable>
export type GiftCardVariantRow = Selectable<GiftCardVariantsTable>
export type GiftCardRateRow = Selectable<GiftCardRatesTable>
export type UploadRow = Selectable<UploadsTable>
export type OrderRow = Selectable<OrdersTable>
export type OrderCardRow = Selectable<OrderCardsTable>
export type OrderEventRow = Selectable<OrderEventsTable>

/** A task reward a person claimed: once per person and task (UNIQUE user_id, task_id). */
export interface TaskClaimsTable {
  id: string
  user_id: string
  /** contract TaskId */
  task_id: string
  /** What was credited, minor units of `currency`. */
  amount: number
  currency: string
  claimed_at: number
}

export type TaskClaimRow = Selectable<TaskClaimsTable>

/** A staff member (migration 0008): never a customer. Secrets are hashed (password) or sealed (TOTP seed). */
export interface StaffTable {
  id: string
  email: string
  role: string
  /** invited | active | disabled */
  status: string
  /** argon2id through the hash gate; null until set-up. */
  password_hash: string | null
  /** The authenticator seed, sealed with CODES_KEY (secrets-box, bound to the staff id). */
  totp_cipher: string | null
  /** The seed shown by the newest opening of the set-up link, until set-up completes. */
  totp_pending_cipher: string | null
  /** The last 30-second step a code was accepted for: the same step again is a replay. */
  totp_last_step: number | null
  totp_failures: number
  locked_at: number | null
  created_by: string
  created_at: number
  updated_at: number
  /** Who was handed the newest set-up link: the inviter, or the admin who last reset them (migration 0019). */
  setup_by: string | null
  /** Who last made them admin by a role change. */
  promoted_by: string | null
  /** When their newest set-up completed. */
  activated_at: number | null
  /** The other admin who confirmed this admin account; an unconfirmed admin approves nothing. */
  confirmed_by: string | null
  confirmed_at: number | null
}
export type StaffRow = Selectable<StaffTable>

export interface StaffSessionsTable {
  token_hash: string
  staff_id: string
  created_at: number
  last_seen_at: number
  expires_at: number
  revoked_at: number | null
}

/** One-time tokens: the sign-in challenge after the password, and the set-up link. Stored hashed. */
export interface StaffTokensTable {
  token_hash: string
  staff_id: string
  purpose: 'challenge' | 'setup'
  created_at: number
  expires_at: number
  used_at: number | null
}

/** A wallet adjustment over ADJUSTMENT_APPROVAL_MIN, waiting for a second admin (migration 0008). */
export interface AdjustmentRequestsTable {
  id: string
  user_id: string
  /** Signed minor units, as the adjustment. */
  amount: number
  reason: string
  /** The maker's idempotency key: the ledger entry's key once approved. */
  request_id: string
  maker: string
  /** pending | approved | declined | lapsed (its maker disabled, locked or no longer admin) | applied (under the line, no checker; migration 0019) */
  status: string
  checker: string | null
  created_at: number
  decided_at: number | null
}
export type AdjustmentRequestRow = Selectable<AdjustmentRequestsTable>

/** Banks as the payout provider lists them, by its codes (migration 0017, decision 039). */
export interface BanksTable {
  currency: string
  /** The provider's (Paystack's) code. */
  code: string
  name: string
  slug: string
  /** Paystack's `type` (nuban for Nigerian banks). */
  type: string
  /** 0 when the provider no longer lists it as active, or no longer lists it. */
  active: number
  refreshed_at: number
}
export type BankRow = Selectable<BanksTable>
/** People who send each order's credit on to their default bank account (opted in with their PIN). */
export interface AutoWithdrawalsTable {
  user_id: string
  enabled_at: number
}
/** A rate far from the one in force, waiting for a second admin (migration 0019). */
export interface RateChangeRequestsTable {
  id: string
  brand_id: string
  country: string
  card_type: string
  rate_micro: number
  /** The rate in force when it was asked. */
  before_micro: number
  maker: string
  /** pending | approved | declined | lapsed */
  status: string
  checker: string | null
  created_at: number
  decided_at: number | null
}
export type RateChangeRequestRow = Selectable<RateChangeRequestsTable>

/** A seller's conversation with support (migration 0022, decision 049). */
export interface SupportConversationsTable {
  id: string
  user_id: string
  /** The order it is about, when started from one. */
  order_id: string | null
  subject: string
  /** open: waiting for staff; answered: staff wrote last; closed: no more replies. */
  status: string
  created_at: number
  updated_at: number
  last_message_at: number
}

/** One message of a support conversation, the seller's or a staff member's. */
export interface SupportMessagesTable {
  id: string
  conversation_id: string
  author: string
  staff_id: string | null
  body: string
  created_at: number
}
