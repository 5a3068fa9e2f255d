#!/bin/sh
# Rebuilds image.gz from nothing: sh mkimage.sh OUTPUT
# The first sector of a FAT16 filesystem as mkfs.vfat writes it (jump,
# OEM name, BIOS parameter block, boot signature), then zeros: another
# filesystem, where ext4's superblock magic is not.
img=${1:-image}
{
	printf '\353\074\220mkfs.fat'		# jump, OEM name
	printf '\000\002\004\004\000\002\000\002\000\020\370\010\000'
	printf '\040\000\100\000\000\000\000\000\000\000\000\000'
	printf '\200\000\051\170\126\064\022NO NAME    FAT16   '
} > "$img"
truncate -s 510 "$img"
printf '\125\252' >> "$img"
truncate -s 2M "$img"
