import SQLite from 'better-sqlite3';
const db = new SQLite(':memory:');
db.exec(`create table t (id text primary key, ns text, a int, b int, deleted int); create index t_p on t(ns, a) where deleted is null; create index t_c on t(ns, a, deleted) where deleted is null;`);
for (const r of db.prepare("explain query plan select count(*) from t where ns = 'x' and deleted is null and a > 3").all() as any[]) console.log(r.detail);
db.exec('drop index t_c');
for (const r of db.prepare("explain query plan select count(*) from t where ns = 'x' and deleted is null and a > 3").all() as any[]) console.log(r.detail);
