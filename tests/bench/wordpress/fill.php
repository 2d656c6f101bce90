<?php
/*
 * fill.php: installs WordPress into an empty database and fills it with the
 * content that make-content.py wrote, through WordPress's own functions
 * (wp_install, wp_insert_user, wp_insert_term, wp_insert_post,
 * wp_insert_comment), so that every table, count and cache is what
 * WordPress itself would have made. Debian 12 has no wp-cli.
 *
 *   CG_WP_PORT=8650 CG_WP_CONFIG=cartograph-8650 CG_WP_THEME=twentytwentyone \
 *   CG_WP_STAMP=... php fill.php content.json
 *
 * WordPress's files run in the global scope and use short global names of
 * their own ($theme, $post, $menu, $pages…): this script's globals are all
 * named $cg_….
 *
 * The stamp is stored last, as the option cartograph_fill_stamp: a fill
 * that stops half way leaves no stamp, and setup.sh starts it again.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

if (PHP_SAPI !== 'cli') {
	exit(1);
}
if ($argc !== 2) {
	fwrite(STDERR, "usage: php fill.php CONTENT.json\n");
	exit(2);
}
$cg_port = getenv('CG_WP_PORT');
$cg_config = getenv('CG_WP_CONFIG');
$cg_theme = getenv('CG_WP_THEME') ?: 'twentytwentyone';
$cg_stamp = getenv('CG_WP_STAMP') ?: '';
if (!$cg_port || !$cg_config) {
	fwrite(STDERR, "fill.php: CG_WP_PORT and CG_WP_CONFIG must be set\n");
	exit(2);
}
$cg_content = json_decode(file_get_contents($argv[1]), true);
if (!is_array($cg_content)) {
	fwrite(STDERR, "fill.php: {$argv[1]} is not the JSON of make-content.py\n");
	exit(1);
}

/* Debian's wp-config.php picks /etc/wordpress/config-$WORDPRESS_CONFIG.php. */
$_SERVER['HTTP_HOST'] = "127.0.0.1:$cg_port";
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['SERVER_PORT'] = $cg_port;
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
$_SERVER['WORDPRESS_CONFIG'] = $cg_config;

define('WP_INSTALLING', true);

/* The site has no mail: the installer's notice to the administrator is
 * not sent (this replaces the pluggable function of upgrade.php). */
function wp_new_blog_notification($blog_title, $blog_url, $user_id, $password) {
}

require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/user.php';
require_once ABSPATH . 'wp-admin/includes/post.php';

function cg_fail($message) {
	fwrite(STDERR, "fill.php: $message\n");
	exit(1);
}

function cg_check($result, $what) {
	if (is_wp_error($result)) {
		cg_fail("$what: " . $result->get_error_message());
	}
	if (!$result) {
		cg_fail("$what failed");
	}
	return $result;
}

add_filter('pre_wp_mail', '__return_true');

$cg_site = $cg_content['site'];
$cg_installed = wp_install($cg_site['title'], 'admin', 'admin@example.com', true, '',
	'cartograph-bench-admin', 'en_US');
cg_check($cg_installed['user_id'] ?? 0, 'wp_install');
wp_set_current_user($cg_installed['user_id']);
wp_update_user(array(
	'ID' => $cg_installed['user_id'],
	'display_name' => 'Site editor',
	'nickname' => 'Site editor',
));

/* The installer's sample content is not the benchmark's. */
foreach (get_posts(array('post_type' => array('post', 'page'), 'post_status' => 'any', 'numberposts' => -1)) as $cg_post) {
	wp_delete_post($cg_post->ID, true);
}
update_option('wp_page_for_privacy_policy', 0);

$cg_options = array(
	'blogdescription' => $cg_site['tagline'],
	'posts_per_page' => 10,
	'posts_per_rss' => 10,
	'show_on_front' => 'posts',
	'timezone_string' => 'UTC',
	'gmt_offset' => 0,
	'date_format' => 'F j, Y',
	'time_format' => 'g:i a',
	'start_of_week' => 1,
	/* Avatars would come from gravatar.com: the site stays on loopback. */
	'show_avatars' => 0,
	'default_comment_status' => 'open',
	'default_ping_status' => 'closed',
	'default_pingback_flag' => 0,
	'ping_sites' => '',
	'thread_comments' => 1,
	'thread_comments_depth' => 5,
	'page_comments' => 0,
	'comments_notify' => 0,
	'moderation_notify' => 0,
	'comment_moderation' => 0,
	'comment_previously_approved' => 0,
	'blog_public' => 1,
	'fresh_site' => 0,
	'uploads_use_yearmonth_folders' => 1,
);
foreach ($cg_options as $cg_name => $cg_value) {
	update_option($cg_name, $cg_value);
}

if (!wp_get_theme($cg_theme)->exists()) {
	cg_fail("the theme $cg_theme is not installed (Debian's wordpress-theme-$cg_theme package)");
}
switch_theme($cg_theme);

/* Authors. */
$cg_users = array();
foreach ($cg_content['authors'] as $cg_author) {
	$cg_users[$cg_author['login']] = cg_check(wp_insert_user(array(
		'user_login' => $cg_author['login'],
		'user_pass' => 'cartograph-bench-' . $cg_author['login'],
		'user_email' => $cg_author['email'],
		'first_name' => $cg_author['first_name'],
		'last_name' => $cg_author['last_name'],
		'display_name' => $cg_author['display_name'],
		'nickname' => $cg_author['display_name'],
		'description' => $cg_author['description'],
		'role' => 'author',
	)), "author {$cg_author['login']}");
}

/* Categories, parents first (make-content.py lists them so). The default
 * category keeps its id and takes the name of the last one. */
$cg_categories = array();
foreach ($cg_content['categories'] as $cg_category) {
	$cg_args = array(
		'slug' => $cg_category['slug'],
		'description' => $cg_category['description'],
		'parent' => $cg_category['parent'] ? $cg_categories[$cg_category['parent']] : 0,
	);
	if ($cg_category['slug'] === 'uncategorized') {
		$cg_default = (int) get_option('default_category');
		cg_check(wp_update_term($cg_default, 'category', $cg_args + array('name' => $cg_category['name'])), 'default category');
		$cg_categories['uncategorized'] = $cg_default;
		continue;
	}
	$cg_term = cg_check(wp_insert_term($cg_category['name'], 'category', $cg_args), "category {$cg_category['slug']}");
	$cg_categories[$cg_category['slug']] = $cg_term['term_id'];
}

/* Posts and their comments. Counting is deferred: WordPress recounts
 * once at the end. */
wp_defer_term_counting(true);
wp_defer_comment_counting(true);
foreach ($cg_content['posts'] as $cg_n => $cg_post) {
	$cg_id = cg_check(wp_insert_post(array(
		'post_type' => 'post',
		'post_status' => 'publish',
		'post_title' => $cg_post['title'],
		'post_content' => $cg_post['content'],
		'post_author' => $cg_users[$cg_post['author']],
		'post_date' => $cg_post['date'],
		'post_date_gmt' => $cg_post['date'],
		'post_category' => array_map(function ($cg_slug) use ($cg_categories) {
			return $cg_categories[$cg_slug];
		}, $cg_post['categories']),
		'tags_input' => $cg_post['tags'],
		'comment_status' => 'open',
		'ping_status' => 'closed',
	), true), "post $cg_n");

	$cg_comment_ids = array();
	foreach ($cg_post['comments'] as $cg_c => $cg_comment) {
		$cg_fields = array(
			'comment_post_ID' => $cg_id,
			'comment_content' => $cg_comment['content'],
			'comment_date' => $cg_comment['date'],
			'comment_date_gmt' => $cg_comment['date'],
			'comment_approved' => 1,
			'comment_type' => 'comment',
			'comment_parent' => $cg_comment['parent'] === null ? 0 : $cg_comment_ids[$cg_comment['parent']],
			'comment_author_IP' => '127.0.0.1',
			'comment_agent' => '',
		);
		if (isset($cg_comment['user'])) {
			$cg_user = get_userdata($cg_users[$cg_comment['user']]);
			$cg_fields += array(
				'user_id' => $cg_user->ID,
				'comment_author' => $cg_user->display_name,
				'comment_author_email' => $cg_user->user_email,
				'comment_author_url' => '',
			);
		} else {
			$cg_fields += array(
				'user_id' => 0,
				'comment_author' => $cg_comment['author'],
				'comment_author_email' => $cg_comment['email'],
				'comment_author_url' => $cg_comment['url'],
			);
		}
		$cg_comment_ids[$cg_c] = cg_check(wp_insert_comment($cg_fields), "comment $cg_c of post $cg_n");
	}
}

/* Static pages, parents first. */
$cg_pages = array();
foreach ($cg_content['pages'] as $cg_page) {
	$cg_pages[$cg_page['slug']] = cg_check(wp_insert_post(array(
		'post_type' => 'page',
		'post_status' => 'publish',
		'post_name' => $cg_page['slug'],
		'post_title' => $cg_page['title'],
		'post_content' => $cg_page['content'],
		'post_parent' => $cg_page['parent'] ? $cg_pages[$cg_page['parent']] : 0,
		'menu_order' => $cg_page['menu_order'],
		'post_author' => $cg_users[$cg_page['author']],
		'post_date' => $cg_page['date'],
		'post_date_gmt' => $cg_page['date'],
		'comment_status' => 'closed',
		'ping_status' => 'closed',
	), true), "page {$cg_page['slug']}");
}
wp_defer_term_counting(false);
wp_defer_comment_counting(false);

/* The primary menu of the theme. */
$cg_menu = cg_check(wp_create_nav_menu('Primary'), 'menu');
foreach ($cg_content['menu'] as $cg_position => $cg_item) {
	list($cg_kind, $cg_slug) = explode(':', $cg_item, 2);
	if ($cg_kind === 'page') {
		$cg_args = array('menu-item-object' => 'page', 'menu-item-type' => 'post_type',
			'menu-item-object-id' => $cg_pages[$cg_slug]);
	} else {
		$cg_args = array('menu-item-object' => 'category', 'menu-item-type' => 'taxonomy',
			'menu-item-object-id' => $cg_categories[$cg_slug]);
	}
	cg_check(wp_update_nav_menu_item($cg_menu, 0, $cg_args + array(
		'menu-item-status' => 'publish',
		'menu-item-position' => $cg_position + 1,
	)), "menu item $cg_item");
}
set_theme_mod('nav_menu_locations', array('primary' => $cg_menu));

/* The sidebar (the footer of Twenty Twenty-One) with classic widgets:
 * search, recent posts, recent comments, monthly archives, the category
 * tree and the tag cloud, as many blogs have it. */
update_option('widget_search', array(2 => array('title' => ''), '_multiwidget' => 1));
update_option('widget_recent-posts', array(2 => array('title' => '', 'number' => 5), '_multiwidget' => 1));
update_option('widget_recent-comments', array(2 => array('title' => '', 'number' => 5), '_multiwidget' => 1));
update_option('widget_archives', array(2 => array('title' => '', 'count' => 0, 'dropdown' => 0), '_multiwidget' => 1));
update_option('widget_categories', array(2 => array('title' => '', 'count' => 0, 'hierarchical' => 1, 'dropdown' => 0), '_multiwidget' => 1));
update_option('widget_tag_cloud', array(2 => array('title' => '', 'count' => 0, 'taxonomy' => 'post_tag'), '_multiwidget' => 1));
update_option('sidebars_widgets', array(
	'wp_inactive_widgets' => array(),
	'sidebar-1' => array('search-2', 'recent-posts-2', 'recent-comments-2', 'archives-2', 'categories-2', 'tag_cloud-2'),
	'array_version' => 3,
));

/* Pretty permalinks; Apache's configuration sends every unknown path to
 * index.php, so no .htaccess is written. */
global $wp_rewrite;
$wp_rewrite->set_permalink_structure('/%year%/%monthnum%/%postname%/');
$wp_rewrite->set_category_base('');
$wp_rewrite->set_tag_base('');
$wp_rewrite->flush_rules(false);

update_option('cartograph_fill_stamp', $cg_stamp);
printf("%d posts, %d pages, %d comments, %d categories, %d tags, %d authors\n",
	wp_count_posts('post')->publish, wp_count_posts('page')->publish,
	wp_count_comments()->approved, wp_count_terms(array('taxonomy' => 'category')),
	wp_count_terms(array('taxonomy' => 'post_tag')), count($cg_users));
