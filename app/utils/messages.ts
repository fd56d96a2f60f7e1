/**
 * Everything the web layer says about failures, in one place (SPEC §8, word for word),
 * so it can be checked against the specification and translated later.
 */
export const transportMessages = {
  expired: 'Login expired, please login again',
  bodyCodeFallback: 'Request failed',
  network: 'Network connection failed. Please check your internet connection.',
  timeout: 'Request timeout. Please try again later.',
  badRequestFallback: 'Invalid request parameters',
  forbidden: 'Access denied',
  notFound: 'API endpoint not found. Please check if the backend service is running correctly.',
  serverError: 'Server internal error',
  otherStatus: (status: number, msg: string) => `Request failed (${status}): ${msg}`,
  refused: 'Cannot connect to server. Please check if the backend service is running.',
  unknown: 'Unknown error occurred',
} as const

/** Fallbacks of the flows when neither the server nor the error says anything (SPEC §8). */
export const flowFallbacks = {
  login: 'Login failed, please try again later',
  register: 'Registration failed, please try again later',
  sendCode: 'Failed to send verification code, please try again later',
  resetPassword: 'Password reset failed, please try again later',
  updateProfile: 'Failed to update user information, please try again later',
  google: 'Google Login failed, please try again later',
} as const

/** What the screens say on success. */
export const successMessages = {
  loggedIn: 'Welcome back',
  registered: 'Your account is ready. Welcome!',
  codeSent: 'We sent a 6-digit code to your e-mail. It expires in 10 minutes.',
  passwordReset: 'Password changed. Sign in with your new password.',
  profileUpdated: 'Profile updated',
  loggedOut: 'You are signed out',
  googleNew: 'Welcome! Choose the nickname people will see.',
} as const

export const accessMessages = {
  crossSite: 'This request came from another site and was refused.',
  pleaseLogin: 'Please sign in to continue',
  tooLarge: 'That was more than this form can take. Please try again with less.',
} as const
