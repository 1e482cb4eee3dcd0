"""Signing in from an MCP client: Verdict as the OAuth 2.1 authorization server of its own /mcp.

django-oauth-toolkit does the protocol (authorization code with PKCE, refresh, revocation,
dynamic client registration, client ID metadata documents, RFC 8414 metadata); this package
wires it to Verdict: the consent page, the guarded fetch of a client's metadata document,
the tokens /mcp accepts and the sign-ins listed on the account page.
"""
