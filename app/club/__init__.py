"""The club kit (`firestep serve --club`): a certificate authority of the club's own, kept on the laptop, and
the server certificate it signs for the addresses the laptop has, so tablets on the club's wifi reach
firestep over HTTPS (a secure context) once they trust the authority at /trust."""
