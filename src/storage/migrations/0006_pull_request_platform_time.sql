-- When the hosting platform last changed each pull request (pull_request.updated_at of the
-- webhook applied last). Deliveries may arrive out of order: an older one is ignored rather than
-- moving the head back. NULL: not known (recorded through the admin API, or before this column).
ALTER TABLE pull_requests ADD COLUMN platform_updated_at timestamptz;
