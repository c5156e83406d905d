import { z } from 'zod'

// The CSP forbids eval. zod decides at schema construction whether to compile parsers with
// `new Function`, and its probe is reported as a CSP violation even though it is caught: turn
// the compiler off before any schema exists. main.tsx imports this module first.
z.config({ jitless: true })
