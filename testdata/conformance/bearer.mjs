// Preloaded into the conformance suite's Node process (node --import): every
// HTTP request it makes to grove carries "Authorization: Bearer $GROVE_HTTP_TOKEN",
// as a configured client's requests do. The suite has no option for request
// headers, and grove --http refuses requests without the token; adding the
// header on the client side keeps grove's production defaults.
//
// The suite sends through fetch and undici, which publish each request on the
// "undici:request:create" diagnostics channel before sending it, and through
// node:http, which publishes "http.client.request.created" before writing
// the headers. A request that already has an Authorization header keeps it.
import diagnostics from 'node:diagnostics_channel';

const token = process.env.GROVE_HTTP_TOKEN;
const origin = process.env.GROVE_CONFORMANCE_ORIGIN; // http://127.0.0.1:PORT
if (!token || !origin) {
  throw new Error('bearer.mjs needs GROVE_HTTP_TOKEN and GROVE_CONFORMANCE_ORIGIN');
}
const { hostname } = new URL(origin); // 127.0.0.1
const value = `Bearer ${token}`;

diagnostics.channel('undici:request:create').subscribe(({ request }) => {
  if (String(request.origin) !== origin) {
    return; // the token goes to grove only
  }
  const headers = request.headers;
  const has = Array.isArray(headers)
    ? headers.some((h, i) => i % 2 === 0 && String(h).toLowerCase() === 'authorization')
    : /(^|\r\n)authorization:/i.test(String(headers));
  if (!has) {
    request.addHeader('authorization', value);
  }
});

diagnostics.channel('http.client.request.created').subscribe(({ request }) => {
  // request.host is where the connection goes (grove's loopback address),
  // whatever Host header a scenario forges; node:http hides the port.
  if (request.host !== hostname) {
    return;
  }
  if (!request.hasHeader('authorization')) {
    request.setHeader('authorization', value);
  }
});
