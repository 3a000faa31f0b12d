-- A pull request's page on the hosting platform (pull_request.html_url of its webhooks, issue 26):
-- the merge queue's public status answers it as `url`. Null until a webhook tells it; the status
-- then builds it from SWITCHYARD_HOSTING_WEB_URL.
ALTER TABLE pull_requests ADD COLUMN html_url text;
