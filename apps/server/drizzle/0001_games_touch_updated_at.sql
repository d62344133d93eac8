-- Every change to a game moves its updated_at, whoever writes it: the catalogue's stamp
-- (count and latest updated_at) then always tells whether a saved index is still current.
CREATE OR REPLACE FUNCTION games_touch_updated_at() RETURNS trigger AS $$
BEGIN
  NEW.updated_at := greatest(clock_timestamp(), OLD.updated_at + interval '1 microsecond');
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER games_touch_updated_at BEFORE UPDATE ON games
  FOR EACH ROW EXECUTE FUNCTION games_touch_updated_at();
