/* Give the kernel's fs/unicode symbols a kern_ prefix so that the oracle
 * links into one program with libe2fold, whose API has the same names. */
#define utf8version_is_supported kern_utf8version_is_supported
#define utf8nlen kern_utf8nlen
#define utf8ncursor kern_utf8ncursor
#define utf8byte kern_utf8byte
#define utf8_validate kern_utf8_validate
#define utf8_strncmp kern_utf8_strncmp
#define utf8_strncasecmp kern_utf8_strncasecmp
#define utf8_strncasecmp_folded kern_utf8_strncasecmp_folded
#define utf8_casefold kern_utf8_casefold
#define utf8_casefold_hash kern_utf8_casefold_hash
#define utf8_normalize kern_utf8_normalize
#define utf8_load kern_utf8_load
#define utf8_unload kern_utf8_unload
#define utf8_parse_version kern_utf8_parse_version
#define utf8_data_table kern_utf8_data_table
