/** The product's name and support address where no setting names them (the api's and the web's settings both default to these). */
export const DEFAULT_BRAND_NAME = 'Cardlane'
export const DEFAULT_SUPPORT_EMAIL = 'support@cardlane.local'
