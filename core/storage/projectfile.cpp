// SPDX-License-Identifier: MIT
// Creating and verifying project files: the part of ProjectStore that decides whether a file may
// be touched at all. Nothing here writes to an existing file.
#include "fileinuse.h"
#include "projectstore.h"
#include "schema.h"

#include "model/problem.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QtEndian>
#include <QUrl>

#include <atomic>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ServeScope {

namespace {

std::atomic<int> s_checkCounter { 0 };

bool refuse(QString *error, const QString &path, const QString &why)
{
    *error = Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "%1: %2"),
        { QDir::toNativeSeparators(path), why });
    return false;
}

QString newer(qint64 version)
{
    return Reason::shown("ServeScope::Storage",
        QT_TRANSLATE_NOOP(
            "ServeScope::Storage", "was written by a newer ServeScope (schema %1; this version reads up to %2)"),
        { QString::number(version), QString::number(Schema::Version) });
}

// Reads the 100-byte SQLite header directly, so a foreign or newer file is refused before SQLite
// opens it. Returns false with *error when the file must be refused. A file whose header still
// lives in its -wal file (created, then killed before a checkpoint) is left to SQLite to decide.
bool readRawHeader(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return refuse(error, path,
            Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "cannot be read (%1)"),
                { f.errorString() }));
    const QByteArray header = f.read(100);
    const bool hasWal = QFileInfo::exists(path + QStringLiteral("-wal"));
    if (header.isEmpty() && hasWal)
        return true;
    if (header.isEmpty())
        return refuse(error, path,
            Reason::shown(
                "ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "is empty; not a ServeScope project")));
    if (header.size() < 100 || !header.startsWith(QByteArrayView("SQLite format 3\0", 16)))
        return refuse(error, path,
            Reason::shown("ServeScope::Storage",
                QT_TRANSLATE_NOOP("ServeScope::Storage", "not a ServeScope project (not an SQLite database)")));
    const auto *bytes = reinterpret_cast<const uchar *>(header.constData());
    const quint32 userVersion = qFromBigEndian<quint32>(bytes + 60);
    const quint32 applicationId = qFromBigEndian<quint32>(bytes + 68);
    if (applicationId != Schema::ApplicationId && (applicationId != 0 || !hasWal)) {
        return refuse(error, path,
            Reason::shown("ServeScope::Storage",
                QT_TRANSLATE_NOOP(
                    "ServeScope::Storage", "not a ServeScope project (SQLite database with application id 0x%1)"),
                { QStringLiteral("%1").arg(applicationId, 8, 16, QLatin1Char('0')) }));
    }
    if (applicationId == Schema::ApplicationId && userVersion > quint32(Schema::Version)) {
        return refuse(error, path, newer(userVersion));
    }
    return true;
}

// A file this process holds open through SQLite is not read beside it (closing the descriptor
// would drop SQLite's locks); it was checked when first opened, and SQLite checks it again.
bool checkRawHeader(const QString &path, QString *error)
{
    bool ok = true;
    FileInUse::readUnlessInUse(path, [&] { ok = readRawHeader(path, error); });
    return ok;
}

// Asks the kernel to read the whole file into the page cache, in large pieces and without waiting,
// before quick_check walks it page by page: on a 1.1 GB project not in the cache the check took
// 16.5 s reading page after page, and 1.5 s after this (0.2 s to ask); on a cached file it costs
// about 0.02 s (docs/project-file.md). Not for a file larger than half the memory, whose first
// pages would be gone again before the check reached them.
void readAhead(const QString &path, const CheckStop *stop)
{
#ifdef __linux__
    const QByteArray native = QFile::encodeName(path);
    struct stat target { };
    if (::stat(native.constData(), &target) != 0
        || double(target.st_size) > double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE)) / 2)
        return;
    const auto ahead = [&](int fd) {
        constexpr off_t kPiece = off_t(8) << 20;
        for (off_t at = 0; at < target.st_size && !(stop && stop->isStopped()); at += kPiece)
            if (::readahead(fd, at, size_t(kPiece)) != 0)
                return;
    };
    const bool own = FileInUse::readUnlessInUse(path, [&] {
        const int fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ahead(fd);
            ::close(fd);
        }
    });
    if (own)
        return;
    // SQLite holds the file open in this process: its own descriptor, as closing another one would
    // drop its locks. Found by device and inode; readahead() changes nothing but the page cache.
    const QStringList fds
        = QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &name : fds) {
        bool number = false;
        const int fd = name.toInt(&number);
        struct stat st { };
        if (number && ::fstat(fd, &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino) {
            ahead(fd);
            return;
        }
    }
#else
    Q_UNUSED(path);
    Q_UNUSED(stop);
#endif
}

// `PRAGMA quick_check`: reads every page. With `stop`, another thread can end it (false).
bool quickCheck(QSqlDatabase &db, const QString &path, CheckStop *stop, QString *error)
{
    readAhead(path, stop);
    if (stop) {
        const QVariant v = db.driver()->handle();
        if (v.isValid() && qstrcmp(v.typeName(), "sqlite3*") == 0)
            stop->watch(*static_cast<sqlite3 *const *>(v.data()));
    }
    QSqlQuery q(db);
    const bool ran = q.exec(QStringLiteral("PRAGMA quick_check")) && q.next();
    const QString result = ran ? q.value(0).toString() : QString();
    const QString failure = ran ? QString() : q.lastError().text();
    q.finish();
    if (stop)
        stop->watch(nullptr);
    if (stop && stop->isStopped())
        return refuse(error, path,
            Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "check stopped")));
    if (!ran)
        return refuse(error, path,
            Reason::shown(
                "ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "is corrupt (%1)"), { failure }));
    if (result != QLatin1String("ok")) {
        // SQLite lists every damaged page, one per line: the first few say enough for a dialog.
        QStringList lines = result.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const bool more = lines.size() > 3;
        lines = lines.mid(0, 3);
        return refuse(error, path,
            Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "is corrupt (%1)"),
                { lines.join(QStringLiteral("; ")) + (more ? QStringLiteral("; …") : QString()) }));
    }
    return true;
}

bool checkOpenConnection(QSqlDatabase &db, const QString &path, ProjectStore::Check check, QString *error)
{
    const qint64 applicationId = Schema::pragmaValue(db, QStringLiteral("application_id"));
    if (applicationId < 0) {
        const QString why = db.lastError().text();
        return refuse(error, path,
            why.trimmed().isEmpty()
                ? Reason::shown(
                    "ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "is corrupt or not a database"))
                : Reason::shown("ServeScope::Storage",
                    QT_TRANSLATE_NOOP("ServeScope::Storage", "is corrupt or not a database (%1)"), { why }));
    }
    if (quint32(applicationId) != Schema::ApplicationId)
        return refuse(error, path,
            Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "not a ServeScope project")));
    const qint64 version = Schema::pragmaValue(db, QStringLiteral("user_version"));
    if (version > Schema::Version) {
        return refuse(error, path, newer(version));
    }
    if (version < 1)
        return refuse(error, path,
            Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "has no ServeScope schema")));
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN"
                               " ('experiments','runs','variants','point_repeats','requests','request_events')"))
        || !q.next() || q.value(0).toInt() != 6)
        return refuse(error, path,
            Reason::shown(
                "ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "is corrupt (tables missing)")));
    return check != ProjectStore::Check::Full || quickCheck(db, path, nullptr, error);
}

} // namespace

// The project is built under a temporary name beside its final one and linked into place only
// when complete: another process never sees a half-created project, and of two creating at once
// exactly one wins (link() refuses an existing name; the other finds a whole project there).
bool ProjectStore::create(const QString &path, QString *error)
{
    if (QFileInfo::exists(path))
        return refuse(error, path,
            Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "already exists")));
    const int n = s_checkCounter++;
    const QString staging
        = QStringLiteral("%1.creating-%2-%3").arg(path).arg(QCoreApplication::applicationPid()).arg(n);
    const QString name = QStringLiteral("servescope-create-%1").arg(n);
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(staging);
        if (!db.open()) {
            refuse(error, path,
                Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "cannot be created (%1)"),
                    { db.lastError().text() }));
        } else {
            QSqlQuery q(db);
            // WAL must be chosen outside a transaction, before the first migration.
            if (!q.exec(QStringLiteral("PRAGMA journal_mode=WAL"))) {
                refuse(error, path,
                    Reason::shown("ServeScope::Storage",
                        QT_TRANSLATE_NOOP("ServeScope::Storage", "cannot enable WAL (%1)"), { q.lastError().text() }));
            } else {
                q.finish(); // an unfinished statement would make the migration's commit fail
                ok = Schema::migrate(db, error);
            }
            q = QSqlQuery();
            db.close(); // the last connection checkpoints: the whole project is in the staging file
        }
    }
    QSqlDatabase::removeDatabase(name);
    if (ok && QFileInfo::exists(staging + QStringLiteral("-wal"))) {
        ok = refuse(error, path,
            Reason::shown("ServeScope::Storage",
                QT_TRANSLATE_NOOP("ServeScope::Storage", "cannot be created (its journal was not written back)")));
    }
    if (ok) {
        const QByteArray from = QFile::encodeName(staging), to = QFile::encodeName(path);
        if (::link(from.constData(), to.constData()) != 0) {
            const int err = errno;
            if (err == EEXIST)
                ok = refuse(error, path,
                    Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "already exists")));
            else if (!QFile::rename(staging, path)) // a filesystem without hard links: rename refuses an existing name
                ok = refuse(error, path,
                    Reason::shown("ServeScope::Storage",
                        QT_TRANSLATE_NOOP("ServeScope::Storage", "cannot be created (%1)"),
                        { QString::fromLocal8Bit(std::strerror(err)) }));
        }
    }
    for (const QString &suffix : { QString(), QStringLiteral("-wal"), QStringLiteral("-shm") })
        QFile::remove(staging + suffix);
    return ok;
}

void CheckStop::stop()
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_stopped = true;
    if (m_handle)
        sqlite3_interrupt(m_handle);
}

bool CheckStop::isStopped() const
{
    return m_stopped;
}

// An interrupt that comes before the statement's first step is forgotten when it starts; the
// progress handler, asked before each of the statement's first steps, catches that one.
void CheckStop::watch(sqlite3 *handle)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (m_handle && !handle)
        sqlite3_progress_handler(m_handle, 0, nullptr, nullptr);
    m_handle = handle;
    if (m_handle) {
        sqlite3_progress_handler(
            m_handle, 1, [](void *self) { return static_cast<CheckStop *>(self)->isStopped() ? 1 : 0; }, this);
    }
}

bool ProjectStore::verify(const QString &path, Check check, QString *error, CheckStop *stop)
{
    ProjectStore store;
    const bool stoppable = stop && check == Check::Full;
    if (!store.open(path, stoppable ? Check::Header : check, Follow::Snapshot)) {
        *error = store.errorString();
        return false;
    }
    return !stoppable || quickCheck(store.m_db, path, stop, error);
}

// Opens a read-only connection. Without a -wal file the file is opened immutable, so SQLite
// creates no -wal/-shm files beside it (a refused file keeps its directory as it was).
static bool openReadOnly(QSqlDatabase &db, const QString &path, bool immutable, QString *error)
{
    if (immutable) {
        db.setDatabaseName(QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toString(QUrl::FullyEncoded)
            + QStringLiteral("?immutable=1"));
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
    } else {
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
    }
    if (db.open())
        return true;
    return refuse(error, path,
        Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "cannot be opened (%1)"),
            { db.lastError().text() }));
}

bool ProjectStore::open(const QString &path, Check check, Follow follow)
{
    close();
    m_error.clear();
    const QFileInfo info(path);
    if (!info.exists())
        return fail(Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "%1: no such file"),
            { QDir::toNativeSeparators(path) }));
    if (!info.isFile())
        return fail(Reason::shown("ServeScope::Storage", QT_TRANSLATE_NOOP("ServeScope::Storage", "%1: not a file"),
            { QDir::toNativeSeparators(path) }));
    QString why;
    if (!checkRawHeader(path, &why))
        return fail(why);
    m_inUse = std::make_unique<FileInUse>(path);
    const bool hasWal = QFileInfo::exists(path + QStringLiteral("-wal"));
    if (!hasWal && follow == Follow::Live) {
        // Check through an immutable connection first: nothing may appear beside a refused file.
        const QString name = QStringLiteral("servescope-check-%1").arg(s_checkCounter++);
        bool ok = false;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            ok = openReadOnly(db, path, true, &why) && checkOpenConnection(db, path, check, &why);
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
        if (!ok)
            return fail(why);
        check = Check::None;
    }
    m_connection = QStringLiteral("servescope-read-%1").arg(s_checkCounter++);
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    if (!openReadOnly(m_db, path, !hasWal && follow == Follow::Snapshot, &why)
        || (check != Check::None && !checkOpenConnection(m_db, path, check, &why))) {
        close();
        return fail(why);
    }
    m_schemaVersion = int(Schema::pragmaValue(m_db, QStringLiteral("user_version")));
    m_path = path;
    return true;
}

} // namespace ServeScope
