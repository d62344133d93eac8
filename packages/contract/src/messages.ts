// The user-facing texts of the API and the web app. The catalogue's, the store-busy and the orders'
// fallback texts have files of their own, which the storefront's first views import without the rest
// (decision 027); they are re-exported here so that every text is still found in one place.
export { catalogMessages } from './catalog-messages.ts';
export { loadMessages } from './load-messages.ts';
export { orderUiMessages } from './order-ui-messages.ts';

/** Validation messages of SPEC §5, shown by the dialogs and answered by the server word for word. */
export const validationMessages = {
  emailRequired: 'Email is required',
  emailNeedsAt: 'Email address must contain "@"',
  emailFormat: 'Please enter a valid email address format',
  emailProvider: 'Please enter an email from a recognized provider',
  emailTaken: 'This email is already registered',
  emailCheckFailed: 'Error checking email availability',
  usernameTooShort: 'Username must be at least 3 characters long',
  usernameTooLong: 'Username cannot exceed 20 characters',
  usernameStart: 'Username must start with a letter',
  usernameCharacters: 'Username can only contain letters, numbers, underscores, and dots',
  usernameReserved: (word: string) => `Username cannot use the reserved word "${word}"`,
  usernameOffensive: 'Username contains inappropriate content',
  usernameTaken: 'This username is already taken',
  usernameCheckFailed: 'Error checking username availability. Please try again.',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordUppercase: 'Password must contain at least one uppercase letter',
  passwordTooLong: 'Password must be at most 128 characters long',
  passwordsDiffer: 'Passwords do not match',
  /** Not in SPEC §5: ASVS asks for it (issue 13). The server answers it for sign-up, reset and change alike. */
  passwordCommon: 'This password is too common. Please choose another one.',
  resetPasswordRules: 'Password must be at least 6 characters and contain at least one uppercase letter.',
  resetPasswordsDiffer: 'Passwords do not match.',
  termsRequired: 'You must accept the Terms & Conditions',
  codeIncomplete: 'Please enter the complete 6-digit code.',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  newPasswordTooShort: 'New password must be at least 6 characters long',
  newPasswordUppercase: 'New password must contain at least one uppercase letter',
  avatarNotImage: 'Please upload an image file',
  avatarTooLarge: 'File size should not exceed 5MB',
  linkEmailMissing: 'Invalid verification link. Email not provided.',
  linkCodeMissing: 'Invalid verification link. Verification code not provided.',
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  tokenRequired: 'Reset token is required',
} as const;

/** What the account API answers: errors and success messages (SPEC §8, DESIGN §4). */
export const accountMessages = {
  invalidCredentials: 'Invalid email or password',
  verifyEmailFirst: 'Please verify your email',
  registered: 'Registration successful. Please check your email for the 6-digit code.',
  emailVerified: 'Email verified successfully!',
  alreadyVerified: 'Email is already verified',
  codeInvalid: 'Invalid verification code. Please try again.',
  codeExpired: 'This code has expired. Please request a new one.',
  codeAttemptsExhausted: 'Too many incorrect attempts. Please request a new code.',
  codeResent: 'Verification code resent successfully!',
  verificationEmailResent: 'Verification email has been sent again!',
  resendTooSoon: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
  tooManyRequests: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
  recoveryEmailSent: 'Recovery email sent. Please check your inbox.',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',
  passwordChanged: 'Password changed successfully.',
  newDeviceCodeSent: 'You are signing in from a new device. We sent a 6-digit code to your email.',
  newDeviceVerified: 'New device verified successfully!',
  authRequired: 'Please log in to continue',
  sessionExpired: 'Your session has expired. Please log in again.',
  adminOnly: 'Only administrators can do this',
  currentPasswordWrong: 'Current password is incorrect',
  passwordUpdated: 'Password updated successfully!',
  accountDeleted: 'Your account has been deleted.',
  avatarMissing: 'Please choose an image to upload',
  avatarUnreadable: 'Unsupported file type.',
  avatarTooLarge: 'File is too large.',
} as const;

/** Fallback texts the dialogs and the profile show when the server gives no message (SPEC §8). */
export const accountUiMessages = {
  registrationFailed: 'Registration failed. Please try again.',
  resendVerificationFailed: 'Failed to resend verification email. Please try again.',
  resendCodeFailed: 'Failed to resend code. Please try again.',
  codeInvalid: 'Invalid verification code. Please try again.',
  forgotFailed: 'Failed to send recovery email. Please try again.',
  resetFailed: 'Failed to reset password. Please try again.',
  linkVerificationFailed: 'Verification failed. Please try again or contact support.',
  avatarUploadPrefix: 'Failed to upload avatar. ',
  avatarTooLarge: 'File is too large.',
  avatarUnsupported: 'Unsupported file type.',
  avatarLoginAgain: 'Please log in again.',
  avatarTryAgain: 'Please try again.',
  profileUpdateFailed: 'Failed to update profile. Please try again.',
  noResponse: 'No response from server. Please check your connection.',
  unexpected: 'An unexpected error occurred. Please try again.',
  passwordUpdateFailed: 'Failed to update password. Please try again.',
  deleteFailed: 'Failed to delete account.',
  deleteError: 'Error deleting account. Please try again.',
  termsAlert: 'Please accept the Terms & Conditions',
  avatarUpdated: 'Profile photo updated!',
} as const;

/** What the orders, payment and library API answer (issue 5), and what the pay page and library show. */
export const orderMessages = {
  emptyOrder: 'Your order is empty',
  tooManyLines: 'An order can hold at most 50 different games',
  gameIdRequired: 'Each line needs a game',
  quantityInvalid: 'Quantity must be a whole number from 1 to 10',
  outOfStock: (title: string, left: number) =>
    left > 0 ? `Only ${left} ${left === 1 ? 'key' : 'keys'} of "${title}" ${left === 1 ? 'is' : 'are'} left` : `"${title}" is out of stock`,
  gameUnavailable: (title: string) => `"${title}" is no longer available`,
  tooManyUnpaidOrders: 'You have 3 orders waiting for payment. Pay or cancel one of them before placing another.',
  tooManyUnpaidKeys: (held: number) =>
    held === 0
      ? 'An order can hold at most 20 keys while it waits for payment. Please order fewer keys, and buy the rest once this order is paid.'
      : `At most 20 keys can wait for payment at once, and your unpaid orders already hold ${held}. Pay or cancel one of them, or order fewer keys.`,
  tooManyUnpaidOfGame: (title: string, held: number) =>
    `At most 10 keys of "${title}" can wait for payment at once, and your unpaid orders already hold ${held}. Pay or cancel that order first.`,
  tooManyUnpaidOrdersFromAddress:
    'Too many orders are waiting for payment from your network. Pay or cancel one of them, or try again once they have lapsed.',
  tooManyUnpaidKeysFromAddress:
    'Too many keys are waiting for payment from your network. Pay or cancel an order, or order fewer keys.',
  orderNotFound: 'Order not found',
  orderExpired: 'This order has expired: its 30 minutes to pay are over. Please place a new order.',
  orderAlreadyPaid: 'This order has already been paid.',
  orderDeclined: 'The payment for this order was declined. Please place a new order.',
  orderRefunded: 'This order has been refunded.',
  orderCancelled: 'You cancelled this order, so nothing was charged. Please place a new order.',
  cancelledToast: 'Order cancelled: nothing was charged, and its keys are back in the store.',
  cancelPaidOrder: 'This order has already been paid, so it cannot be cancelled.',
  cancelRefundedOrder: 'This order has been refunded, so it cannot be cancelled.',
  otherProvider: 'This order is not paid through the test gateway.',
  paymentUnavailable: 'Payment is unavailable right now. Please try again in a few minutes.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for another order',
  idempotencyKeyInvalid: 'The Idempotency-Key header must be 1 to 200 printable ASCII characters',
  cardDeclined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  unknownTestCard: 'Your card was declined: it is not one of the test cards. Pay with 4242 4242 4242 4242.',
  paymentSucceeded: 'Payment successful! Your keys are in your library.',
  paymentSucceededDelayed: 'Payment successful! Your keys are on their way: we will e-mail you as soon as they are in your library.',
  paymentRefundedPriceRose: 'Payment received, but our supplier raised its price above what you paid, so we could not buy your keys: your money goes back in full. We have e-mailed you the details.',
  cardNumberRequired: 'Card number is required',
  cardNumberInvalid: 'Please enter a valid card number',
  expiryRequired: 'Expiry date is required',
  expiryFormat: 'Expiry date must be in MM/YY format',
  expiryPast: 'Your card has expired',
  cvcInvalid: 'CVC must be 3 digits',
  nameRequired: 'Cardholder name is required',
  nameTooLong: 'Cardholder name must be at most 100 characters',
  refundNotPaid: 'Only paid orders can be refunded.',
  refundAlreadyDone: 'This order has already been refunded.',
  refundTooLate: 'Orders can be refunded within 30 days of payment.',
  refundProviderMissing: 'This order was paid through a payment provider that is not configured.',
  keyNotFound: 'Key not found',
  libraryEmpty: 'Your library is empty',
  asyncPaymentFailed: 'Your payment did not go through.',
  paymentProcessing: 'Your payment is being processed. Your keys will be in your library as soon as it is through.',
  // Guest checkout (issue 29): an order placed with an e-mail and no account.
  guestEmailRequired: 'Please sign in, or give your e-mail to buy as a guest.',
  guestOrderTooLarge: (maxEuro: number) => `Guest orders are limited to €${maxEuro}. Please sign in or create an account to place a larger order.`,
  guestTooManyCopies: (title: string, max: number) => `As a guest you can buy at most ${max} ${max === 1 ? 'copy' : 'copies'} of "${title}". Please sign in or create an account to buy more.`,
  guestTooManyOrders: (max: number) => `This e-mail has placed ${max} guest orders in the last 24 hours. Please sign in or create an account to place another.`,
  orderLinkInvalid: 'This order link is not valid or has expired. Sign in to see your orders, or use the link in your latest e-mail.',
  guestPaymentSucceeded: 'Payment successful! Your keys are on your order page, and we have e-mailed you its link.',
  giftPaymentSucceeded: 'Payment successful! We have e-mailed your gift to its recipient, with your message.',
} as const;

/** The support form's and the chat's texts (SPEC §5, §8), shown by the page and answered by the server. */
export const supportMessages = {
  nameRequired: 'Name is required',
  nameTooLong: 'Name cannot exceed 100 characters',
  titleRequired: 'Title of message is required',
  titleTooLong: 'Title cannot exceed 150 characters',
  messageRequired: 'Message is required',
  messageTooLong: 'Message cannot exceed 450 characters',
  feedbackSent: 'Thank you! Your message has been sent. We answer within 24 hours.',
  sendFailed: 'Failed to send your message. Please try again.',
  chatGreeting: "Hi! I'm AI support. How can I help you?",
  chatFailed: 'Sorry, an error occurred. Please try again later.',
} as const;

/** What any call answers for a request it cannot take, whatever the route (issue 12). */
export const requestMessages = {
  unsafeText: 'Text must not contain control characters or broken Unicode',
  malformed: 'The request could not be read. Please check what was sent.',
  malformedForm: 'The form could not be read. Please send it again.',
  badUrl: 'The address is not valid',
  urlTooLong: 'The address is too long',
  tooLarge: 'The request is too large',
  unsupportedType: 'This type of content is not supported here',
  conflict: 'This clashes with a change made meanwhile. Please reload and try again.',
  serverError: 'Something went wrong on our side. Please try again.',
} as const;
