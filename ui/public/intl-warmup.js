// Loads the browser's date and money data (ICU) while the app's code is still downloading.
// The first Intl formatter of a page costs 20-30 ms on a desktop and four times that on a
// phone; without this it lands in the first render of a screen with dates or prices and holds
// taps back (Lighthouse's blocking time). A classic async script: it runs as soon as it is
// here, never delays the page, and shares nothing with the app (the app picks its own locale).
try {
  var asked =
    navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  Intl.DateTimeFormat.supportedLocalesOf(asked);
  new Intl.DateTimeFormat(asked[0] || 'en-GB', { day: 'numeric', month: 'short' }).format(0);
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(0);
} catch {
  // A language tag Intl does not read: the app falls back to en-GB itself.
}
