/**
 * The pages' icon: a shield with a tick, in the pages' blue. npm start serves it at `/favicon.svg`
 * (and at `/favicon.ico`, which browsers ask for on a page that names no icon, such as /docs), so it
 * is an image of the pages' own origin: their Content-Security-Policy (`img-src 'self'`) lets it in
 * without widening, and it is one cached file rather than bytes in every page.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<path d="M16 2 4 6v9c0 7.5 5.1 12.8 12 15 6.9-2.2 12-7.5 12-15V6z" fill="#2b5fd9"/>
<path d="m10 16 4.2 4.2L22.5 12" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;

/** The `<link>` each page's `<head>` carries. */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';
