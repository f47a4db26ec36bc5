"""Door-keeping: who may do what (seats and tokens), the request limits, security headers and CSRF, idempotent writes."""
