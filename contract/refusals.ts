/**
 * Business refusals: HTTP 200, their own code, a sentence for the person (DESIGN §3). One record
 * each, used by the api to refuse and by the web to recognise a refusal it treats specially;
 * docs/api.md carries the same table (tests/api/contract.test.ts keeps it true).
 * Codes are never reused: a retired refusal keeps its number.
 *
 * A sentence names what it is about with `{placeholders}` (an amount, a limit, a date, a name);
 * `formatRefusal` fills them, on both sides, so no one types the sentence again (decision 028).
 */
import { faceValueRefusals } from './face-value-refusals'
import { type Refusal } from './refusal-format'

export { formatRefusal, type Refusal, type RefusalParams } from './refusal-format'

export const Refusals = {
  /** Wrong e-mail/password pair, or no such account (answered the same on purpose). */
  BAD_CREDENTIALS: { code: 4001, msg: 'Incorrect e-mail or password' },
  /** Verification code wrong, expired, used or burnt. */
  BAD_VERIFY_CODE: { code: 4002, msg: 'The verification code is wrong or has expired' },
  /** A new code was asked for within a minute of the last one. */
  CODE_TOO_SOON: { code: 4003, msg: 'Please wait a minute before asking for another code' },
  /** Registration for an e-mail that already has an account. */
  EMAIL_TAKEN: { code: 4004, msg: 'An account with this e-mail already exists. Sign in instead' },
  /** Password is one of the most common ones. */
  WEAK_PASSWORD: { code: 4005, msg: 'This password is too common. Choose another one' },
  /** Google id_token could not be verified. */
  BAD_ID_TOKEN: { code: 4006, msg: 'Google sign-in could not be verified' },
  /** The e-mail's account is linked to another Google account. */
  ACCOUNT_ALREADY_BOUND: { code: 4007, msg: 'This e-mail is linked to a different Google account' },
  /** The daily number of codes for this requester, e-mail and type is used up. */
  CODE_LIMIT_REACHED: { code: 4008, msg: 'Too many codes were asked for this e-mail today. Try again tomorrow' },
  /** The same idempotency key (requestId) came with a different request. */
  IDEMPOTENCY_KEY_REUSED: { code: 4009, msg: 'This request was already made with different details. Start again' },
  /** Not enough available balance for the withdrawal (fee included). */
  INSUFFICIENT_BALANCE: { code: 4101, msg: 'Your available balance is too low for this withdrawal' },
  /** Under the smallest withdrawal. */
  BELOW_MINIMUM: { code: 4102, msg: 'The smallest withdrawal is {min}' },
  /** Over what remains of today's maximum (when nothing remains, the api says so in its own words). */
  OVER_DAILY_MAX: { code: 4103, msg: 'You can withdraw up to {left} more today' },
  /** No withdrawal PIN yet: set one first. */
  PIN_NOT_SET: { code: 4104, msg: 'Set your withdrawal PIN first' },
  /** Setting a first PIN when one exists (change it with the old PIN instead). */
  PIN_ALREADY_SET: { code: 4105, msg: 'You already have a withdrawal PIN. Change it with your current PIN' },
  /** A wrong PIN, with how many tries are left ("1 try", "4 tries"). */
  PIN_WRONG: { code: 4106, msg: 'Wrong PIN. {tries} left before PIN actions are locked for {minutes} minutes' },
  /** Too many wrong PINs: PIN actions wait until then. */
  PIN_LOCKED: { code: 4107, msg: 'Too many wrong PINs. PIN actions are locked until {until}' },
  /** Withdrawals wait 24 hours after a PIN reset by e-mail code. */
  PIN_RECENTLY_RESET: { code: 4108, msg: 'Your PIN was reset recently. For your safety, withdrawals open again on {until}' },
  /** Another PIN check of this person is still running. */
  PIN_BUSY: { code: 4109, msg: 'Another request is checking your PIN. Try again in a moment' },
  /** Unknown bank code. */
  UNKNOWN_BANK: { code: 4110, msg: 'We do not pay out to this bank yet. Choose another one' },
  /** The same bank account saved twice. */
  BANK_CARD_DUPLICATE: { code: 4111, msg: 'This bank account is already saved' },
  /** More bank accounts than allowed. */
  BANK_CARD_LIMIT: { code: 4112, msg: 'You can keep at most {max} bank accounts. Remove one first' },
  /** No such bank account among the person's own. */
  BANK_CARD_NOT_FOUND: { code: 4113, msg: 'This bank account was not found' },
  /** No such withdrawal among the person's own. */
  WITHDRAWAL_NOT_FOUND: { code: 4114, msg: 'This withdrawal was not found' },
  /** An operator's move that the withdrawal's state does not allow. */
  WITHDRAWAL_BAD_MOVE: { code: 4115, msg: 'A {from} withdrawal cannot become {to}' },
  /** The amount does not cover the withdrawal fee. */
  AMOUNT_BELOW_FEE: { code: 4116, msg: 'The amount must be more than the fee of {fee}' },
  /** An operator's call names a person that does not exist. */
  USER_NOT_FOUND: { code: 4117, msg: 'No such user' },
  /** An operator's adjustment would take the balance below zero. */
  ADJUSTMENT_TOO_LARGE: { code: 4118, msg: 'This adjustment would take the balance below zero' },
  /** A task reward claimed by an account whose bank account already earned rewards for another account. */
  REWARD_BANK_ACCOUNT_USED: {
    code: 4120,
    msg: 'This bank account already earned rewards on another account. Rewards are paid once per person',
  },
  /** A withdrawal that would take rewards to a bank account that earned them on another account. */
  REWARD_HELD: {
    code: 4121,
    msg: 'Rewards are paid once per person, and this bank account already earned them on another account. Your rewards stay in your wallet; you can withdraw the rest',
  },
  /** No such brand in the catalogue. */
  UNKNOWN_BRAND: { code: 4201, msg: 'We do not buy this gift card. Choose one from the list' },
  /** The brand is not bought from this country. */
  UNKNOWN_COUNTRY: { code: 4202, msg: 'We do not buy {brand} cards from that country. Choose another country' },
  /** The brand is not bought as this card type (physical / e-code) in this country. */
  UNKNOWN_CARD_TYPE: { code: 4203, msg: 'We do not buy {brand} {country} cards as {type}. Choose the other type' },
  /** The face value is outside the card's limits; it comes in fixed values and this is not one (face-value-refusals.ts). */
  ...faceValueRefusals,
  /** The rate moved since the person saw it: the new rate and payout to confirm. */
  RATE_CHANGED: {
    code: 4206,
    msg: 'The rate changed to {rate} per {unit} (you saw {seen}): you would get {payout}. Check the new payout and confirm',
  },
  /** This e-code was already submitted, by anyone. */
  CODE_ALREADY_SUBMITTED: { code: 4207, msg: 'This card code was already submitted. Each code can be sold once' },
  /** A photo id that is not one of the person's own uploads. */
  IMAGE_NOT_FOUND: { code: 4208, msg: 'A photo was not found. Upload it again' },
  /** No such order among the person's own (or, for operators, at all). */
  ORDER_NOT_FOUND: { code: 4209, msg: 'This order was not found' },
  /** A move the order's status does not allow; the msg says what the status allows. */
  ORDER_BAD_MOVE: { code: 4210, msg: 'This order cannot do that in its current status' },
  /** The uploaded bytes are not a JPEG, PNG or WebP image, whatever the file name says. */
  NOT_AN_IMAGE: { code: 4211, msg: 'This file is not a photo. Upload a JPEG, PNG or WebP image' },
  /** An uploaded file over the size limit. */
  FILE_TOO_LARGE: { code: 4212, msg: 'This photo is larger than 5 MB. Upload a smaller one' },
  /** An image whose pixel count is too large to process. */
  IMAGE_TOO_LARGE: { code: 4213, msg: 'This photo has too many pixels. Upload a smaller one' },
  /** Too many uploads today. */
  UPLOAD_LIMIT: { code: 4214, msg: 'You uploaded too many photos today. Try again tomorrow' },
  /** An operator's proposal that is not lower than the quote, or pays nothing at all. */
  PROPOSAL_NOT_LOWER: { code: 4215, msg: 'A proposal must lower the payout of the cards it names, and pay something' },
  /** A rejection's proof photo that is not an operator's own upload, or is already another order's proof. */
  PROOF_NOT_OPERATORS: { code: 4216, msg: 'A proof photo must be one an operator uploaded for this order' },
  /** No such task (or it is switched off: its reward setting is 0). */
  TASK_NOT_FOUND: { code: 4310, msg: 'This task was not found' },
  /** The task is not finished yet. */
  TASK_NOT_DONE: { code: 4311, msg: 'Finish the task first: {task}' },
  /** The reward of this task was already credited. */
  TASK_ALREADY_CLAIMED: { code: 4312, msg: 'You already claimed this reward' },
  /** No such notification among the person's own (someone else's id, or an unknown one). */
  NOTIFICATION_NOT_FOUND: { code: 4301, msg: 'This notification was not found' },
  /** Account deletion confirmed with a wrong password (counted with failed sign-ins of the address). */
  DELETE_WRONG_PASSWORD: { code: 4320, msg: 'Wrong password. Your account was not deleted' },
  /** Money is still available in the wallet. */
  DELETE_BALANCE_LEFT: { code: 4321, msg: 'Withdraw your {balance} balance first, then delete your account' },
  /** Money is on hold for a withdrawal on its way. */
  DELETE_MONEY_ON_HOLD: {
    code: 4322,
    msg: '{amount} is on hold for a withdrawal. Wait until it reaches your bank, then delete your account',
  },
  /** A withdrawal is not yet paid or failed. */
  DELETE_WITHDRAWALS_OPEN: { code: 4323, msg: 'A withdrawal is still on its way. Wait until it arrives, then delete your account' },
  /** An order is waiting for review, in review, or waiting for the person's answer to an offer; the msg says how many. */
  DELETE_ORDERS_OPEN: { code: 4324, msg: 'You have an open order. Wait until it is finished, then delete your account' },
  /** The account has a password: a code does not delete it. */
  DELETE_USE_PASSWORD: { code: 4325, msg: 'Confirm with your password' },
  /** The account has no password (Google only): confirm with an e-mailed code. */
  DELETE_USE_CODE: { code: 4326, msg: 'Your account has no password. Confirm with a code we e-mail you' },
  /** Money is left in the wallet, but less than the smallest withdrawal. */
  DELETE_BALANCE_TOO_SMALL: {
    code: 4327,
    msg: 'Your {balance} balance is less than the smallest withdrawal ({min}), so it cannot be withdrawn. Contact support to close your account',
  },
  /** bindAccount: this Google account is already linked to someone else. */
  GOOGLE_LINKED_ELSEWHERE: { code: 4340, msg: 'This Google account is already linked to another account' },
  /** bindAccount: the person already has a different Google account linked. */
  GOOGLE_ALREADY_LINKED: { code: 4341, msg: 'Your account is already linked to a different Google account' },
  /** bindAccount: Google has not verified the e-mail of this Google account (never linked by an unverified e-mail). */
  GOOGLE_EMAIL_UNVERIFIED: { code: 4342, msg: 'Google has not verified the e-mail of this Google account. Verify it with Google first' },
  /** An avatar over its size limit (contract/uploads.ts MAX_AVATAR_BYTES). */
  AVATAR_TOO_LARGE: { code: 4343, msg: 'This photo is larger than 2 MB. Upload a smaller one' },
  /** approve: the withdrawal is not an automatic payout waiting for approval. */
  PAYOUT_NOT_AWAITING_APPROVAL: { code: 4400, msg: 'This withdrawal is not waiting for approval' },
  /** update: a provider pays this withdrawal; an operator may only fail it before it is sent. */
  PAYOUT_AUTOMATIC: { code: 4401, msg: 'The payout provider pays this withdrawal. Approve it, or fail it before it is sent' },
  /** bankCard/add and resolve: the bank does not know this account number. */
  ACCOUNT_NOT_RESOLVED: { code: 4402, msg: 'The bank does not know this account number. Check the bank and the digits' },
  /** bankCard/add and resolve: the payout provider could not be asked; nothing was saved. */
  ACCOUNT_CHECK_UNAVAILABLE: { code: 4403, msg: 'We could not check this account with the bank right now. Please try again in a minute' },
  /** reconcile: the payout provider could not be asked. */
  PAYOUT_PROVIDER_UNAVAILABLE: { code: 4404, msg: 'The payout provider could not be asked. Try again in a minute' },
  /** Staff sign-in: wrong e-mail/password pair, no such staff member, or one who is disabled or not set up (answered the same on purpose). */
  STAFF_BAD_CREDENTIALS: { code: 4500, msg: 'Incorrect e-mail or password' },
  /** Staff sign-in: the authenticator code is wrong (the tenth in a row locks the staff member). */
  STAFF_BAD_CODE: { code: 4501, msg: 'The authenticator code is wrong. Check the time on your phone and try the newest code' },
  /** Ten wrong authenticator codes: only an admin's reset opens it again. */
  STAFF_LOCKED: { code: 4502, msg: 'This staff account is locked after too many wrong codes. Ask an admin to reset it' },
  /** The sign-in step after the password is over: too late, used, or never issued. */
  STAFF_CHALLENGE_EXPIRED: { code: 4503, msg: 'This sign-in has expired. Enter your e-mail and password again' },
  /** A set-up link that is unknown, used, replaced by a reset, or older than 24 hours. */
  STAFF_SETUP_INVALID: { code: 4504, msg: 'This set-up link is not valid any more. Ask an admin for a new one' },
  /** A code that was already used in its 30-second step (a replay). */
  STAFF_CODE_USED: { code: 4505, msg: 'This code was already used. Wait for the next one' },
  /** Invite of an e-mail that already belongs to a staff member. */
  STAFF_EXISTS: { code: 4506, msg: 'A staff member with this e-mail already exists' },
  /** No staff member with this e-mail. */
  STAFF_NOT_FOUND: { code: 4507, msg: 'No staff member with this e-mail' },
  /** An admin may not disable, reset or change the role of their own account. */
  STAFF_SELF: { code: 4508, msg: 'Ask another admin to change your own account' },
  /** A set-up completed before the QR code was read (no authenticator seed to check the code against). */
  STAFF_SETUP_NOT_STARTED: { code: 4509, msg: 'Open the set-up link first and scan its QR code' },
  /** Another reviewer holds this order's claim (until a time of day, UTC). */
  ORDER_CLAIMED: { code: 4510, msg: '{reviewer} is reviewing this order (claim until {until} UTC)' },
  /** A decision on an order whose claim the reviewer does not hold (never had it, it lapsed, or another took it over). */
  ORDER_CLAIM_NEEDED: { code: 4511, msg: 'Claim the order first: you do not hold its claim' },
  /** The admin who asked for an adjustment cannot approve it: another admin must. */
  ADJUSTMENT_OWN: { code: 4512, msg: 'Another admin must approve an adjustment you asked for' },
  /** No such adjustment waiting (unknown, or already approved or declined). */
  ADJUSTMENT_NOT_PENDING: { code: 4513, msg: 'This adjustment is not waiting for approval' },
  /** bankCard/add and resolve: the payout provider answered, but the person's bank could not be reached for the name (nothing saved). */
  BANK_UNREACHABLE: { code: 4430, msg: 'We could not reach your bank right now; try again in a minute' },
  /** finalize OTP: the withdrawal's transfer is not waiting for an OTP. */
  PAYOUT_NOT_AWAITING_OTP: { code: 4440, msg: 'This payout is not waiting for an OTP' },
  /** finalize OTP: Paystack did not take the OTP (wrong or expired). */
  PAYOUT_OTP_REFUSED: { code: 4441, msg: 'Paystack did not accept this OTP. Check it, or ask Paystack for a new one' },
  /** resolve: the withdrawal has no conflict to resolve. */
  PAYOUT_NO_CONFLICT: { code: 4442, msg: 'This payout has no conflict to resolve' },
  // Maker-checker that needs two people (decision 041).
  /** The checker invited, reset or made admin the one who asked, or the other way round. */
  CHECKER_LINKED: {
    code: 4530,
    msg: 'You cannot approve this: you invited, reset or made admin the one who asked, or they did so for you. Another admin must',
  },
  /** An admin account no other admin has confirmed yet approves nothing. */
  CHECKER_NOT_CONFIRMED: {
    code: 4531,
    msg: 'Your admin account is not confirmed yet: another admin must confirm it before you approve anything',
  },
  /** The checker's account was set up or confirmed after the request was made. */
  CHECKER_TOO_NEW: {
    code: 4532,
    msg: 'Your admin account was set up or confirmed after this was asked: an admin who was here before must decide it',
  },
  /** The maker was disabled, locked or is no longer an admin: the request is void. */
  REQUEST_LAPSED: { code: 4533, msg: 'This request has lapsed: the admin who asked is disabled, locked or no longer an admin' },
  /** confirm: the account is not an active admin waiting for confirmation. */
  STAFF_NOT_CONFIRMABLE: { code: 4534, msg: 'Only an active admin account that is not yet confirmed can be confirmed' },
  /** confirm: by the admin who invited, reset or made it admin (or whom it did so for). */
  STAFF_CONFIRM_LINKED: { code: 4535, msg: 'Another admin must confirm this account: not the one who invited, reset or made it admin' },
  /** confirm: only a confirmed admin confirms another (the first two, added with `npm run ops -- staff add`, confirm each other). */
  STAFF_CONFIRM_UNCONFIRMED: { code: 4536, msg: 'Only a confirmed admin can confirm another admin' },
  /** A rate far from the one in force, sent without its confirmation step. */
  RATE_CHANGE_UNCONFIRMED: { code: 4537, msg: 'The new rate is {change} from the rate in force ({before}): confirm it' },
  /** No such rate change waiting (unknown, decided or lapsed). */
  RATE_CHANGE_NOT_PENDING: { code: 4538, msg: 'This rate change is not waiting for approval' },
  /** The admin who asked for a rate change cannot approve it. */
  RATE_CHANGE_OWN: { code: 4539, msg: 'Another admin must approve a rate change you asked for' },
  // Notifications by push and e-mail (decision 046).
  /** Turning off e-mail for security events (PIN, password, new device, new bank account). */
  NOTIFY_LOCKED: { code: 4600, msg: 'Security e-mails cannot be turned off: they tell you when someone else may be using your account' },
  /** unsubscribe: a token the api did not sign (altered, cut short, or made up). */
  UNSUBSCRIBE_TOKEN_INVALID: {
    code: 4601,
    msg: 'This unsubscribe link is not valid. Sign in and change your e-mail settings on the Account screen',
  },
  /** pushSubscribe: an endpoint that is not a push service's https address. */
  PUSH_ENDPOINT_REFUSED: { code: 4602, msg: 'This browser gave a push address we cannot use. Try again, or use another browser' },
  /** pushSubscribe: keys that are not a P-256 public key and a 16-byte secret. */
  PUSH_KEYS_INVALID: { code: 4603, msg: 'This browser gave push keys we cannot use. Try again, or use another browser' },
  /** pushRemove: no device of this person with this id (removed already, or never theirs). */
  PUSH_SUBSCRIPTION_NOT_FOUND: { code: 4604, msg: 'This device does not get your notifications (any more)' },
  /** pushKey / pushSubscribe: push is not set up on this server (no VAPID keys). */
  PUSH_UNAVAILABLE: { code: 4605, msg: 'Push notifications are not available right now' },
  /** No such support conversation, or another person's (answered the same on purpose). */
  SUPPORT_CONVERSATION_NOT_FOUND: { code: 4620, msg: 'This conversation was not found' },
  /** A reply to a conversation staff have closed. */
  SUPPORT_CONVERSATION_CLOSED: { code: 4621, msg: 'This conversation is closed. Start a new one if you still need help' },
  /** More messages in a minute than a person types (decision 049). */
  SUPPORT_TOO_MANY_MESSAGES: { code: 4622, msg: 'You have sent {max} messages in a minute. Wait a moment, then write again' },
} as const satisfies Record<string, Refusal>
