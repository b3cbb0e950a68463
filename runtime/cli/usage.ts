export const USAGE = `Usage: vela <command> [options]

Commands:
  start      start the services of the chosen plugins (default command)
  plugins    list the plugins on the loader path, with versions and validity
  migrate    apply every pending database migration, then exit
  pack NAME  pack a plugin folder (a path, or a plugin's name on the loader path) into NAME-VERSION.tgz
  admin reset-password
             set a new administrator password (read from standard input, or VELA_ADMIN_PASSWORD)
             and end that account's console sessions
  help       show this text
  version    print the runtime version

Options (start, plugins, migrate):
  --loader-path DIR[,DIR...]  folders of plugin folders and .tgz archives (default: the bundled plugins/)
  --config FILE               JSON configuration layered over config/default.json
  --plugins NAME[,NAME...]    load only these plugins and their dependencies
  --data-dir DIR              data folder: SQLite file, index snapshots, uploads, plugin cache (default ./data)
  --no-seed                   skip the sample data plugins seed on first start (the connector's Sample site)
  --log-format FORMAT         auto (readable on a terminal, JSON lines otherwise), json or pretty

Options (start):
  --workers N                 N worker processes per service on this machine (1 to 64; default 1: one
                              process serves everything); SIGHUP restarts them one by one (docs/scaling.md)
  --split-services            each service in processes of its own (N each with --workers N), so one
                              service never waits on another's event loop

Options (admin reset-password):
  --user NAME                 the account (default: runtime.admin.user, VELA_ADMIN_USER, else admin)
  --config, --data-dir        where the database is (or DATABASE_URL)

Options (pack):
  --out DIR                   where to write the archive (default: the working directory)
  --loader-path, --config     where to look a plugin up by name

  --help, -h                  show this text;  --version, -v  print the runtime version

Environment: VELA_DATA_DIR, VELA_LOADER_PATH, VELA_PLUGINS, VELA_HOST, VELA_GATEWAY_PORT, VELA_SEARCH_PORT,
VELA_CONNECTOR_PORT, DATABASE_URL, VELA_LOG_LEVEL, VELA_LOG_FORMAT, VELA_ADMIN_USER, VELA_ADMIN_PASSWORD (see README).`;
