/*
 * memery_filter.h — the Memery filter plugin ABI, version 1.1 (1.0 plus the units extension,
 * the host thread pool and memery_host.extension; a plugin built against either loads in a
 * host of either).
 *
 * This header is all a plugin author needs. A plugin is a shared library that exports one
 * function, MEMERY_FILTER_ENTRY_SYMBOL ("memery_plugin_entry"), returning a pointer to a
 * static memery_filter_entry. The entry lists filters; each filter has a reverse-DNS string
 * id ("org.example.posterize"), declares its parameters by string id with type, range,
 * default and unit, and processes one image into another.
 *
 * Rules that keep the ABI stable (learnt from CLAP, and from what hurts in frei0r):
 *  - Every struct starts with struct_size, set to sizeof() as the plugin (or host) was
 *    built. Released structs never change; a newer ABI minor only appends fields at the end,
 *    and a reader never touches a field past the struct_size it was given.
 *  - New abilities come as extensions looked up by versioned string id through
 *    memery_filter_entry.extension (e.g. MEMERY_EXT_MIGRATE, "memery.migrate/1").
 *  - Parameters are found by string id, never by position: stored creations keep working
 *    when a plugin reorders or adds parameters.
 *  - No global symbols but the entry; nothing is called before the host calls init.
 *  - Every call that can fail returns a memery_status and may write a message.
 *
 * Threading: the host calls a filter's process() from one thread at a time per filter,
 * but may run different filters concurrently; keep no mutable global state.
 */
#ifndef MEMERY_FILTER_H
#define MEMERY_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MEMERY_FILTER_ABI_MAJOR 1
#define MEMERY_FILTER_ABI_MINOR 1

/* The one symbol a plugin exports. */
#define MEMERY_FILTER_ENTRY_SYMBOL "memery_plugin_entry"

#if defined(_WIN32)
#define MEMERY_EXPORT __declspec(dllexport)
#else
#define MEMERY_EXPORT __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------------------ */
/* Status                                                                                */

typedef enum memery_status {
    MEMERY_OK = 0,
    MEMERY_ERROR_INVALID_ARGUMENT = 1, /* a value the filter cannot use */
    MEMERY_ERROR_UNSUPPORTED = 2,      /* a pixel format or size the filter does not handle */
    MEMERY_ERROR_OUT_OF_MEMORY = 3,
    MEMERY_ERROR_CANCELLED = 4,        /* host->progress() returned false */
    MEMERY_ERROR_FAILED = 5            /* anything else; say what in the message */
} memery_status;

/* ------------------------------------------------------------------------------------ */
/* Images                                                                                */

typedef enum memery_pixel_format {
    /* 4 bytes per pixel in memory order R, G, B, A; straight (not premultiplied) alpha. */
    MEMERY_PIXEL_RGBA8 = 0,
    /* 4 bytes per pixel in memory order B, G, R, A; colour premultiplied by alpha
       (Cairo's ARGB32 on little-endian machines). */
    MEMERY_PIXEL_BGRA8_PREMULTIPLIED = 1
} memery_pixel_format;

/* The bit a filter sets in memery_filter.pixel_formats for each format it accepts. */
#define MEMERY_PIXEL_FORMAT_BIT(format) (1u << (uint32_t)(format))

typedef struct memery_image {
    uint32_t struct_size;
    uint32_t width;          /* >= 1 */
    uint32_t height;         /* >= 1 */
    uint32_t format;         /* a memery_pixel_format */
    size_t stride;           /* bytes from one row to the next; >= 4 * width, maybe more */
    uint8_t *pixels;         /* height * stride bytes */
} memery_image;
/* Only a row's first 4 * width bytes are the filter's: the bytes after them, up to the
   stride (the padding), are the host's and must not be written. The input must not be
   written at all. Third-party filters get pixels fenced by pages they may not touch, with
   padded rows: a write past either end, into the padding or into the input stops the filter
   with a message that names it, in `memery plugin check` and in real use alike. */

/* ------------------------------------------------------------------------------------ */
/* Parameters                                                                            */

typedef enum memery_param_type {
    MEMERY_PARAM_NUMBER = 0,  /* value.number, within [min, max] */
    MEMERY_PARAM_INTEGER = 1, /* value.integer, within [min, max] */
    MEMERY_PARAM_BOOLEAN = 2, /* value.boolean, 0 or 1 */
    MEMERY_PARAM_COLOR = 3,   /* value.color: r, g, b, a in [0, 1], straight alpha */
    MEMERY_PARAM_POINT = 4,   /* value.point: x, y in the param's unit */
    MEMERY_PARAM_CHOICE = 5   /* value.choice: an index into choices */
} memery_param_type;

typedef enum memery_param_unit {
    MEMERY_UNIT_NONE = 0,
    /* Image pixels. A host rendering a preview at a lower resolution scales the value, so
       a 10-pixel blur looks the same in the preview and in the full picture. */
    MEMERY_UNIT_PIXELS = 1,
    /* A fraction of the image's shorter side (0.5 = half of it): resolution-free. */
    MEMERY_UNIT_FRACTION = 2,
    /* Degrees of angle (ABI 1.1). A 1.0 host refuses a filter that declares it here: to
       load in 1.0 hosts too, declare MEMERY_UNIT_NONE and answer MEMERY_UNIT_DEGREES from
       the MEMERY_EXT_UNITS extension, which a 1.0 host never asks. */
    MEMERY_UNIT_DEGREES = 3
} memery_param_unit;

typedef struct memery_value {
    double number;
    int64_t integer;
    int32_t boolean;
    uint32_t choice;
    float color[4];
    double point[2];
} memery_value;

typedef struct memery_param {
    uint32_t struct_size;
    const char *id;           /* stable, e.g. "radius"; lower case, digits and '-' */
    const char *name;         /* for people, e.g. "Radius" */
    const char *description;  /* may be NULL */
    uint32_t type;            /* a memery_param_type */
    uint32_t unit;            /* a memery_param_unit */
    double min;               /* NUMBER and INTEGER: the allowed range, min <= max */
    double max;
    memery_value default_value;
    uint32_t choice_count;    /* CHOICE: how many choices */
    const char *const *choices;
} memery_param;

/* ------------------------------------------------------------------------------------ */
/* The host, as the plugin sees it                                                        */

typedef enum memery_log_level {
    MEMERY_LOG_DEBUG = 0,
    MEMERY_LOG_INFO = 1,
    MEMERY_LOG_WARNING = 2,
    MEMERY_LOG_ERROR = 3
} memery_log_level;

typedef struct memery_host {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    void *host_data;          /* the host's own; do not touch */
    /* Writes a line to the host's log. */
    void (*log)(const struct memery_host *host, uint32_t level, const char *text);
    /* Reports progress in [0, 1]. Returns false when the host wants the filter to stop:
       then return MEMERY_ERROR_CANCELLED soon. Calling it is optional but cheap. */
    bool (*progress)(const struct memery_host *host, double fraction);
    /* ABI 1.1, appended: a host extension by versioned id (MEMERY_HOST_EXT_THREAD_POOL), or
       NULL. A 1.0 host's struct ends before it: use MEMERY_HOST_HAS(host, extension) first. */
    const void *(*extension)(const struct memery_host *host, const char *id);
} memery_host;

/* Whether the host's struct reaches `field` (a field a newer ABI minor appended). */
#define MEMERY_HOST_HAS(host, field) \
    ((host)->struct_size >= offsetof(memery_host, field) + sizeof((host)->field) && (host)->field != NULL)

/* ------------------------------------------------------------------------------------ */
/* Filters                                                                               */

/* The same input and parameters always give the same output (no randomness, no clock). */
#define MEMERY_FILTER_DETERMINISTIC (1u << 0)

typedef struct memery_filter {
    uint32_t struct_size;
    const char *id;           /* reverse-DNS and unique, e.g. "org.example.posterize" */
    const char *name;         /* for people */
    const char *description;  /* may be NULL */
    /* The version of this filter's parameters. Stored parameters carry it; when a newer
       plugin raises it, the host migrates stored values one version at a time through the
       MEMERY_EXT_MIGRATE extension. Starts at 1. */
    uint32_t param_version;
    uint32_t flags;           /* MEMERY_FILTER_* */
    uint32_t pixel_formats;   /* MEMERY_PIXEL_FORMAT_BIT() of each accepted format */
    uint32_t param_count;
    const memery_param *params;
    /* Reads input, writes output: two images of the same size and format (never the
       same memory). values[i] belongs to params[i]; the host has checked each against its
       type and range. On failure, write a short reason into message (a NUL-terminated
       string of at most message_size bytes) and return the status. */
    memery_status (*process)(const struct memery_filter *filter, const memery_host *host,
                             const memery_image *input, const memery_image *output,
                             const memery_value *values, char *message, size_t message_size);
} memery_filter;

/* ------------------------------------------------------------------------------------ */
/* The entry                                                                             */

typedef struct memery_filter_entry {
    uint32_t struct_size;
    uint16_t abi_major;       /* MEMERY_FILTER_ABI_MAJOR the plugin was built with */
    uint16_t abi_minor;
    const char *plugin_id;    /* reverse-DNS, e.g. "org.example.filters" */
    const char *plugin_name;
    const char *plugin_version;
    /* Called once in each process that loads the plugin, before anything else; may be NULL.
       Return false to refuse to load. Memery loads a plugin in a new helper process for
       each call (and `plugin check` for each run), so expect it often. */
    bool (*init)(const memery_host *host);
    /* Called once before the library is unloaded; may be NULL. */
    void (*deinit)(void);
    uint32_t (*filter_count)(void);
    const memery_filter *(*filter_at)(uint32_t index);
    /* An extension by versioned id, or NULL when the plugin has none by that id. */
    const void *(*extension)(const char *id);
} memery_filter_entry;

/* What a plugin exports:
     MEMERY_EXPORT const memery_filter_entry *memery_plugin_entry(void);          */
typedef const memery_filter_entry *(*memery_filter_entry_function)(void);

/* ------------------------------------------------------------------------------------ */
/* Extension: parameter migration                                                         */

#define MEMERY_EXT_MIGRATE "memery.migrate/1"

/* Stored parameter values by id, lent to the plugin during a migration. */
typedef struct memery_param_store {
    uint32_t struct_size;
    void *host_data;
    /* Copies the value stored under id into *out; false when there is none. */
    bool (*get)(const struct memery_param_store *store, const char *id, memery_value *out);
    void (*set)(const struct memery_param_store *store, const char *id, const memery_value *value);
    void (*remove)(const struct memery_param_store *store, const char *id);
} memery_param_store;

typedef struct memery_migrate_extension {
    uint32_t struct_size;
    /* Converts the stored parameters of filter_id from from_version to from_version + 1.
       The store holds every parameter from_version declared. Rename, convert or remove
       through it; when a step removes one, set every parameter the next version adds (to
       its default if nothing older maps to it): the host refuses what would lose a value. */
    memery_status (*migrate)(const char *filter_id, uint32_t from_version, const memery_param_store *params,
                             char *message, size_t message_size);
} memery_migrate_extension;

/* ------------------------------------------------------------------------------------ */
/* Host extension: the host's thread pool (ABI 1.1; CLAP's thread-pool is the model)      */

#define MEMERY_HOST_EXT_THREAD_POOL "memery.thread-pool/1"

typedef void (*memery_task)(void *context, uint32_t index, uint32_t worker);

typedef struct memery_thread_pool {
    uint32_t struct_size;
    /* How many tasks the host runs at once; worker numbers are below it. Split work by it
       (several tasks a worker), and size per-worker scratch by it. */
    uint32_t (*workers)(const memery_host *host);
    /* Runs task(context, index, worker) for every index below count on the host's threads,
       the calling thread among them, and returns when all have run. Worker numbers are
       below the smaller of workers() and count, and two tasks never run at once with the
       same one. Tasks must not call the host (progress, log): call
       run() for a part of the work, report progress, then run() the next part. Returns
       false when nothing was run (the host could not): then run the tasks yourself. */
    bool (*run)(const memery_host *host, uint32_t count, memery_task task, void *context);
} memery_thread_pool;

/* Use it like this, with a plain loop when the host has none (a 1.0 host, or none lent):
       const memery_thread_pool *pool = MEMERY_HOST_HAS(host, extension)
           ? host->extension(host, MEMERY_HOST_EXT_THREAD_POOL) : NULL;
       if (!pool || !pool->run(host, count, task, context))
           for (uint32_t i = 0; i < count; i++) task(context, i, 0);
   Do not start threads of your own: the host's pool is shared by every render under way. */

/* ------------------------------------------------------------------------------------ */
/* Extension: units beyond ABI 1.0's (ABI 1.1)                                            */

#define MEMERY_EXT_UNITS "memery.units/1"

typedef struct memery_units_extension {
    uint32_t struct_size;
    /* The unit of a parameter the filter declares as MEMERY_UNIT_NONE (only those are
       asked, once each when the plugin loads): MEMERY_UNIT_DEGREES, or MEMERY_UNIT_NONE to
       keep it. Memery gives an angle no direction: say in the parameter's description
       which way a positive angle turns. */
    uint32_t (*unit)(const char *filter_id, const char *param_id);
} memery_units_extension;

#ifdef __cplusplus
}
#endif

#endif /* MEMERY_FILTER_H */
