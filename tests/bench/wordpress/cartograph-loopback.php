<?php
/*
 * Plugin Name: Cartograph loopback
 * Description: Keeps the benchmark site on loopback: no page asks a browser
 * to reach another host. setup.sh installs it as a must-use plugin.
 *
 * WordPress adds to every page an emoji detection script that loads images
 * from s.w.org when the browser lacks a glyph, and a DNS prefetch hint for
 * that host. The renderer of a crawler would follow both. The server side
 * (updates, pings, cron) is switched off in the site's configuration.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

remove_action('wp_head', 'print_emoji_detection_script', 7);
remove_action('wp_print_styles', 'print_emoji_styles');
remove_action('admin_print_scripts', 'print_emoji_detection_script');
remove_action('admin_print_styles', 'print_emoji_styles');
remove_filter('the_content_feed', 'wp_staticize_emoji');
remove_filter('comment_text_rss', 'wp_staticize_emoji');
remove_filter('wp_mail', 'wp_staticize_emoji_for_email');
add_filter('emoji_svg_url', '__return_false');

add_filter('wp_resource_hints', function ($urls, $relation) {
	return array_values(array_filter($urls, function ($url) {
		$href = is_array($url) ? ($url['href'] ?? '') : $url;
		$host = parse_url(str_starts_with($href, '//') ? 'http:' . $href : $href, PHP_URL_HOST);
		return $host === null || $host === '127.0.0.1';
	}));
}, 10, 2);
