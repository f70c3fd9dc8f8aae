"""The reviewer view: a web page and JSON API over the manual-review queue.

`queue` is pure state built from decision, verdict and review events; `server` serves it;
`auth` checks tokens, sessions and CSRF; `events` builds review events; `export` turns reviews
into eval records for `citegate eval` and `calibrate`.
"""
