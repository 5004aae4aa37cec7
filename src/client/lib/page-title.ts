/**
 * `<screen> · podclub`: every title of the app reads so. A screen renders it as `<title>`, which
 * React puts in the document's head, on the server and in the browser alike.
 */
export const pageTitle = (screen: string) => `${screen} · podclub`
